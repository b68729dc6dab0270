// SPDX-License-Identifier: Apache-2.0
// Pango's Cairo rendering and its fontconfig font map, as the render target's text layer uses them.
//
// Pango is not linked: it brings sixteen shared objects (GLib, GObject, HarfBuzz, FriBidi, ...) whose loading and
// constructors cost every process about 1.4 ms at start, text or not. The text layer opens it on first use with
// `si_pango_load`, which fills an `SIPango` table with the functions below; their types come from Pango's own
// headers, so a call through the table is checked exactly as a direct call would be. Fontconfig stays linked:
// Cairo needs it anyway.
#include <dlfcn.h>
#include <stddef.h>
#include <pango/pangocairo.h>
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
    X(pango_cairo_context_set_font_options) X(pango_cairo_font_map_new_for_font_type) X(pango_cairo_layout_path) \
    X(pango_cairo_show_layout) X(pango_cairo_show_layout_line) \
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

/// Opens Pango's Cairo library (and with it Pango, GLib and GObject) and fills `api`.
/// Returns NULL when every function was found, or else what went wrong: the loader's message or a missing name.
static inline const char *_Nullable si_pango_load(SIPango *_Nonnull api) {
    void *library = dlopen(SI_PANGO_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define SI_PANGO_LOOKUP(name) if ((*(void **)&api->name = dlsym(library, #name)) == NULL) return #name;
    SI_PANGO_FUNCTIONS(SI_PANGO_LOOKUP)
#undef SI_PANGO_LOOKUP
    return NULL;
}
