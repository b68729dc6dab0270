// SPDX-License-Identifier: Apache-2.0
// libpng reports errors with longjmp, which Swift cannot catch. These two functions keep every libpng call
// inside one setjmp scope and hand back a status and a message instead.
#ifndef SIGNATURE_INK_CPNG_SHIM_H
#define SIGNATURE_INK_CPNG_SHIM_H

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// Row filter masks, as constants Swift can import.
enum {
    sink_png_filter_none = PNG_FILTER_NONE,
    sink_png_filter_sub = PNG_FILTER_SUB,
    sink_png_filter_up = PNG_FILTER_UP,
    sink_png_filter_all = PNG_ALL_FILTERS,
};

typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
    char message[256];
} sink_png_buffer;

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;   // 8
    int color_type;  // PNG_COLOR_TYPE_*
    const unsigned char *pixels;  // rows of `stride` bytes each
    size_t stride;
    const unsigned char *palette_rgb;  // palette_count * 3 bytes, for PNG_COLOR_TYPE_PALETTE
    int palette_count;
    const unsigned char *palette_alpha;  // tRNS entries, alpha_count bytes
    int alpha_count;
    uint32_t pixels_per_metre;  // pHYs; 0 writes none
    const char *const *text_keys;
    const char *const *text_values;
    int text_count;
    int compression_level;  // zlib 0...9
    int compression_strategy;  // Z_DEFAULT_STRATEGY, Z_FILTERED, Z_RLE, ...
    int filters;  // PNG_FILTER_* mask
} sink_png_params;

static void sink_png_on_error(png_structp png, png_const_charp msg) {
    sink_png_buffer *b = (sink_png_buffer *)png_get_error_ptr(png);
    if (b) { strncpy(b->message, msg ? msg : "libpng error", sizeof b->message - 1); }
    png_longjmp(png, 1);
}

static void sink_png_on_warning(png_structp png, png_const_charp msg) { (void)png; (void)msg; }

static void sink_png_on_write(png_structp png, png_bytep data, size_t len) {
    sink_png_buffer *b = (sink_png_buffer *)png_get_io_ptr(png);
    if (b->size + len > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 4096;
        while (cap < b->size + len) cap *= 2;
        unsigned char *grown = (unsigned char *)realloc(b->data, cap);
        if (!grown) png_error(png, "out of memory");
        b->data = grown;
        b->capacity = cap;
    }
    memcpy(b->data + b->size, data, len);
    b->size += len;
}

static void sink_png_on_flush(png_structp png) { (void)png; }

/// Encodes one image into `out` (whose data the caller frees with free()). Returns 0 on success, or -1 with
/// out->message set.
static int sink_png_encode(const sink_png_params *p, sink_png_buffer *out) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, out, sink_png_on_error, sink_png_on_warning);
    if (!png) { strcpy(out->message, "png_create_write_struct failed"); return -1; }
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_write_struct(&png, NULL); strcpy(out->message, "png_create_info_struct failed"); return -1; }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, out, sink_png_on_write, sink_png_on_flush);
    png_set_compression_level(png, p->compression_level);
    png_set_compression_strategy(png, p->compression_strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, p->filters);
    png_set_IHDR(png, info, p->width, p->height, p->bit_depth, p->color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (p->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color palette[256];
        for (int i = 0; i < p->palette_count && i < 256; i++) {
            palette[i].red = p->palette_rgb[3 * i];
            palette[i].green = p->palette_rgb[3 * i + 1];
            palette[i].blue = p->palette_rgb[3 * i + 2];
        }
        png_set_PLTE(png, info, palette, p->palette_count);
        if (p->alpha_count > 0) png_set_tRNS(png, info, p->palette_alpha, p->alpha_count, NULL);
    }
    if (p->pixels_per_metre > 0)
        png_set_pHYs(png, info, p->pixels_per_metre, p->pixels_per_metre, PNG_RESOLUTION_METER);
    if (p->text_count > 0) {
        png_text texts[16];
        int n = p->text_count < 16 ? p->text_count : 16;
        for (int i = 0; i < n; i++) {
            memset(&texts[i], 0, sizeof texts[i]);
            texts[i].compression = PNG_TEXT_COMPRESSION_NONE;
            texts[i].key = (png_charp)p->text_keys[i];
            texts[i].text = (png_charp)p->text_values[i];
            texts[i].text_length = strlen(p->text_values[i]);
        }
        png_set_text(png, info, texts, n);
    }
    png_write_info(png, info);
    for (uint32_t y = 0; y < p->height; y++) png_write_row(png, p->pixels + (size_t)y * p->stride);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 0;
}

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
} sink_png_source;

static void sink_png_on_read(png_structp png, png_bytep dest, size_t len) {
    sink_png_source *s = (sink_png_source *)png_get_io_ptr(png);
    if (s->size - s->offset < len) png_error(png, "unexpected end of PNG data");
    memcpy(dest, s->data + s->offset, len);
    s->offset += len;
}

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;           // as stored in the file
    int color_type;          // as stored in the file
    uint32_t pixels_per_metre_x;  // 0 when there is no pHYs chunk
    uint32_t pixels_per_metre_y;
    int phys_unit;
    unsigned char *rgba;     // width * height * 4 bytes, straight alpha; the caller frees it with free()
    char text[1024];         // "key=value\n" for each text chunk, truncated to fit
    char message[256];
} sink_png_image;

/// Decodes a PNG of any colour type into 8-bit straight RGBA. Returns 0 on success, or -1 with
/// out->message set.
static int sink_png_decode(const unsigned char *data, size_t size, sink_png_image *out) {
    sink_png_source src = { data, size, 0 };
    sink_png_buffer err;
    memset(&err, 0, sizeof err);
    memset(out, 0, sizeof *out);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &err, sink_png_on_error, sink_png_on_warning);
    if (!png) { strcpy(out->message, "png_create_read_struct failed"); return -1; }
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_read_struct(&png, NULL, NULL); strcpy(out->message, "png_create_info_struct failed"); return -1; }
    unsigned char *volatile rgba = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(rgba);
        out->rgba = NULL;
        memcpy(out->message, err.message, sizeof out->message);
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_set_read_fn(png, &src, sink_png_on_read);
    png_read_info(png, info);
    out->width = png_get_image_width(png, info);
    out->height = png_get_image_height(png, info);
    out->bit_depth = png_get_bit_depth(png, info);
    out->color_type = png_get_color_type(png, info);
    png_uint_32 rx = 0, ry = 0; int unit = 0;
    if (png_get_pHYs(png, info, &rx, &ry, &unit)) {
        out->pixels_per_metre_x = rx; out->pixels_per_metre_y = ry; out->phys_unit = unit;
    }
    png_textp texts = NULL; int ntext = 0;
    if (png_get_text(png, info, &texts, &ntext) > 0) {
        size_t used = 0;
        for (int i = 0; i < ntext; i++) {
            int n = snprintf(out->text + used, sizeof out->text - used, "%s=%s\n", texts[i].key, texts[i].text);
            if (n < 0 || (size_t)n >= sizeof out->text - used) break;
            used += (size_t)n;
        }
    }
    if (out->width > 65535 || out->height > 65535) png_error(png, "image too large to decode here");
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    size_t stride = (size_t)out->width * 4;
    rgba = (unsigned char *)malloc(stride * out->height + 1);
    if (!rgba) png_error(png, "out of memory");
    for (uint32_t y = 0; y < out->height; y++) png_read_row(png, rgba + y * stride, NULL);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    out->rgba = rgba;
    return 0;
}

#endif
