// SPDX-License-Identifier: Apache-2.0
// Pango's Cairo rendering and its fontconfig font map, as the render target's text layer uses them.
//
// Pango is not linked: it brings sixteen shared objects (GLib, GObject, HarfBuzz, FriBidi, ...) whose loading and
// constructors cost every process about 1.4 ms at start, text or not. The text layer opens it on first use with
// `si_pango_load`, which fills an `SIPango` table with the functions below; their types come from Pango's own
// headers, so a call through the table is checked exactly as a direct call would be. Fontconfig stays linked:
// Cairo needs it anyway.
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <pango/pangocairo.h>
#include <hb.h>
#include <hb-ot.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>

#ifdef __APPLE__
#define SI_PANGO_LIBRARY "libpangocairo-1.0.0.dylib"
#else
#define SI_PANGO_LIBRARY "libpangocairo-1.0.so.0"
#endif

// Every Pango and GObject function the text layer calls.
#define SI_PANGO_FUNCTIONS(X) \
    X(g_object_unref) X(pango_attr_foreground_new) X(pango_attr_list_insert) X(pango_attr_list_new) \
    X(pango_attr_list_unref) X(pango_attr_style_new) X(pango_attr_underline_new) X(pango_attr_weight_new) \
    X(pango_cairo_context_set_font_options) X(pango_cairo_font_get_scaled_font) \
    X(pango_cairo_font_map_new_for_font_type) X(pango_cairo_layout_path) X(pango_cairo_show_layout) \
    X(pango_cairo_show_layout_line) \
    X(pango_context_set_base_dir) X(pango_context_set_language) X(pango_context_set_round_glyph_positions) \
    X(pango_fc_font_map_set_config) X(pango_font_description_free) X(pango_font_description_new) \
    X(pango_font_description_set_absolute_size) X(pango_font_description_set_family) \
    X(pango_font_description_set_style) X(pango_font_description_set_weight) X(pango_font_map_create_context) \
    X(pango_glyph_string_extents) X(pango_language_from_string) \
    X(pango_layout_get_baseline) X(pango_layout_get_extents) X(pango_layout_get_iter) \
    X(pango_layout_get_line_readonly) X(pango_layout_get_text) X(pango_layout_get_unknown_glyphs_count) X(pango_layout_iter_free) \
    X(pango_layout_iter_get_baseline) X(pango_layout_iter_get_line_extents) X(pango_layout_iter_get_run_readonly) \
    X(pango_layout_iter_next_line) X(pango_layout_iter_next_run) X(pango_layout_new) X(pango_layout_set_alignment) \
    X(pango_layout_set_attributes) X(pango_layout_set_auto_dir) X(pango_layout_set_font_description) \
    X(pango_layout_set_line_spacing) X(pango_layout_set_single_paragraph_mode) X(pango_layout_set_text) \
    X(pango_layout_set_width) X(pango_layout_set_wrap)

/// Pango's functions, one field each, named and typed as Pango declares them.
typedef struct SIPango {
#define SI_PANGO_FIELD(name) __typeof__(name) *_Nonnull name;
    SI_PANGO_FUNCTIONS(SI_PANGO_FIELD)
#undef SI_PANGO_FIELD
} SIPango;

/// Empty shared objects named as the system's Cairo, fontconfig and FreeType (`libcairo.so.2`, ...), which the
/// release link (Scripts/link-release) puts in an executable that has those three libraries linked in and exports
/// their functions; absent (a null address) from every other build.
///
/// Pango's libraries name the shared Cairo, fontconfig and FreeType as needed, and the loader would load them and
/// what they need (X11, xcb, pixman, libpng, expat, brotli): 18 shared objects, although every call reaches the
/// executable's own copy. An object already loaded under a library's name stands for it, so these are loaded first.
/// A render with a timestamp and a watermark, in a new process, went from 30.6 M to 26.3 M instructions and from 15
/// to 13 ms (callgrind; farm-bench, 40 pairs).
typedef struct SIStandIns {
    uint64_t count;
    struct { const char *_Nonnull name; const unsigned char *_Nonnull bytes; uint64_t size; } libraries[];
} SIStandIns;
extern const SIStandIns si_stand_ins __attribute__((weak));

/// `memfd_create` (glibc declares it only for _GNU_SOURCE).
extern int memfd_create(const char *_Nonnull name, unsigned int flags);

/// The most stand-ins loaded.
#define SI_STAND_INS_MAX 8

/// The stand-ins loaded: how many, and their handles.
typedef struct SILoadedStandIns {
    int count;
    void *_Nullable handles[SI_STAND_INS_MAX];
} SILoadedStandIns;

/// Loads each stand-in from an anonymous file; a stand-in that cannot be written or loaded is left out, and the
/// loader then loads the library itself. Called once for the process (``StandIns`` in SignatureInkRender): HarfBuzz
/// (`si_harfbuzz_load`) and Pango (`si_pango_load`) are opened beside the same ones.
/// The files stay open until every stand-in is loaded: the loader knows an object by its path, and a file number
/// closed and given to the next file would make that one's path the first one's.
static inline SILoadedStandIns si_load_stand_ins(void) {
    SILoadedStandIns loaded = { 0 };
#ifdef __linux__
    if (&si_stand_ins == NULL) return loaded;
    int files[SI_STAND_INS_MAX], opened = 0;
    for (uint64_t i = 0; i < si_stand_ins.count && opened < SI_STAND_INS_MAX; i++) {
        // MFD_CLOEXEC | MFD_NOEXEC_SEAL: a stand-in has no code; kernels before 6.3 know only the first.
        int file = memfd_create(si_stand_ins.libraries[i].name, 1 | 8);
        if (file < 0 && errno == EINVAL) file = memfd_create(si_stand_ins.libraries[i].name, 1);
        if (file < 0) break;
        files[opened++] = file;
        const unsigned char *bytes = si_stand_ins.libraries[i].bytes;
        uint64_t left = si_stand_ins.libraries[i].size;
        while (left > 0) {
            ssize_t written = write(file, bytes, left);
            if (written <= 0) break;
            bytes += written;
            left -= (uint64_t)written;
        }
        char path[48];
        snprintf(path, sizeof path, "/proc/self/fd/%d", file);
        void *handle = left == 0 ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
        if (handle != NULL) loaded.handles[loaded.count++] = handle;
    }
    for (int i = 0; i < opened; i++) close(files[i]);
#endif
    return loaded;
}

/// Opens Pango's Cairo library (and with it Pango, GLib and GObject) and fills `api`, with the stand-ins of
/// `si_stand_ins` in place of the shared Cairo, fontconfig and FreeType when the executable has them; should Pango
/// not load beside them, they are closed and Pango is opened as it is without them.
/// Returns NULL when every function was found, or else what went wrong: the loader's message or a missing name.
static inline const char *_Nullable si_pango_load(SIPango *_Nonnull api, SILoadedStandIns *_Nonnull standIns) {
    void *library = dlopen(SI_PANGO_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL && standIns->count > 0) {
        for (int i = 0; i < standIns->count; i++) dlclose(standIns->handles[i]);
        standIns->count = 0;
        library = dlopen(SI_PANGO_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) return dlerror();
#define SI_PANGO_LOOKUP(name) if ((*(void **)&api->name = dlsym(library, #name)) == NULL) return #name;
    SI_PANGO_FUNCTIONS(SI_PANGO_LOOKUP)
#undef SI_PANGO_LOOKUP
    return NULL;
}

#ifdef __APPLE__
#define SI_HARFBUZZ_LIBRARY "libharfbuzz.0.dylib"
#else
#define SI_HARFBUZZ_LIBRARY "libharfbuzz.so.0"
#endif

// Every HarfBuzz function that a line or a paragraph set without Pango calls (SignatureInkRender's HarfBuzzLine and
// HarfBuzzParagraph).
#define SI_HARFBUZZ_FUNCTIONS(X) \
    X(hb_blob_create_from_file) X(hb_blob_destroy) X(hb_buffer_add_utf8) X(hb_buffer_clear_contents) X(hb_buffer_create) X(hb_buffer_destroy) \
    X(hb_buffer_get_glyph_infos) X(hb_buffer_get_glyph_positions) X(hb_buffer_get_length) \
    X(hb_buffer_set_cluster_level) X(hb_buffer_set_direction) X(hb_buffer_set_flags) \
    X(hb_buffer_set_invisible_glyph) X(hb_buffer_set_language) X(hb_buffer_set_script) X(hb_face_create) \
    X(hb_face_destroy) X(hb_face_make_immutable) X(hb_feature_from_string) X(hb_font_create) X(hb_font_destroy) \
    X(hb_font_get_glyph_extents) X(hb_font_get_h_extents) X(hb_font_get_nominal_glyph) X(hb_font_set_ptem) X(hb_font_set_scale) \
    X(hb_language_from_string) X(hb_ot_metrics_get_position) X(hb_shape)

/// HarfBuzz's functions, one field each, named and typed as HarfBuzz declares them.
typedef struct SIHarfBuzz {
#define SI_HARFBUZZ_FIELD(name) __typeof__(name) *_Nonnull name;
    SI_HARFBUZZ_FUNCTIONS(SI_HARFBUZZ_FIELD)
#undef SI_HARFBUZZ_FIELD
} SIHarfBuzz;

/// Opens HarfBuzz alone (with GLib and Graphite, which it needs: four shared objects where Pango brings eighteen),
/// beside the stand-ins (loaded first by the caller), and fills `api`. Returns NULL when every function was found,
/// or else what went wrong.
static inline const char *_Nullable si_harfbuzz_load(SIHarfBuzz *_Nonnull api) {
    void *library = dlopen(SI_HARFBUZZ_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define SI_HARFBUZZ_LOOKUP(name) if ((*(void **)&api->name = dlsym(library, #name)) == NULL) return #name;
    SI_HARFBUZZ_FUNCTIONS(SI_HARFBUZZ_LOOKUP)
#undef SI_HARFBUZZ_LOOKUP
    return NULL;
}
