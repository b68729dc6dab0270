// SPDX-License-Identifier: Apache-2.0
// qpdf's C API (Debian: libqpdf-dev), for reading and writing existing PDF files.
//
// qpdf is not linked as a shared library: with the C++ runtime and GnuTLS (whose constructors read the system's crypto
// configuration) it costs every process about 3 ms at start, whether or not a form is signed. The form code calls
// `si_qpdf_load` on first use, which fills an `SIQPDF` table with the functions below, typed by qpdf's own header:
// those of the qpdf archive the release build links in (Scripts/qpdf-static.c), or else of the shared library it opens.
#include <dlfcn.h>
#include <stddef.h>
#include <qpdf/qpdf-c.h>

// The shared object's names: the one this engine is built and tested with, then the development link, which any
// later soname with the same C API answers to.
#ifdef __APPLE__
#define SI_QPDF_LIBRARIES {"libqpdf.29.dylib", "libqpdf.dylib"}
#else
#define SI_QPDF_LIBRARIES {"libqpdf.so.29", "libqpdf.so"}
#endif

// Every qpdf function the form code calls.
#define SI_QPDF_FUNCTIONS(X) \
    X(qpdf_cleanup) X(qpdf_get_buffer) X(qpdf_get_buffer_length) X(qpdf_get_error) X(qpdf_get_error_code) \
    X(qpdf_get_error_file_position) X(qpdf_get_error_message_detail) X(qpdf_get_last_string_length) \
    X(qpdf_more_warnings) X(qpdf_next_warning) X(qpdf_set_decode_level) X(qpdf_get_error_full_text) \
    X(qpdf_get_num_pages) X(qpdf_get_object_by_id) X(qpdf_get_page_n) X(qpdf_get_root) X(qpdf_get_trailer) \
    X(qpdf_has_error) X(qpdf_init) \
    X(qpdf_init_write_memory) X(qpdf_is_encrypted) X(qpdf_make_indirect_object) X(qpdf_oh_append_item) \
    X(qpdf_oh_begin_dict_key_iter) X(qpdf_oh_copy_foreign_object) X(qpdf_oh_dict_more_keys) X(qpdf_oh_dict_next_key) \
    X(qpdf_oh_get_array_item) X(qpdf_oh_get_array_n_items) X(qpdf_oh_get_dict) X(qpdf_oh_get_generation) \
    X(qpdf_oh_get_key) X(qpdf_oh_get_name) X(qpdf_oh_get_numeric_value) X(qpdf_oh_get_object_id) \
    X(qpdf_oh_get_page_content_data) X(qpdf_oh_get_stream_data) X(qpdf_oh_get_utf8_value) X(qpdf_oh_has_key) \
    X(qpdf_oh_is_array) X(qpdf_oh_is_dictionary) X(qpdf_oh_is_indirect) X(qpdf_oh_is_name) X(qpdf_oh_is_null) \
    X(qpdf_oh_is_number) X(qpdf_oh_is_stream) X(qpdf_oh_is_string) X(qpdf_oh_new_array) X(qpdf_oh_new_integer) \
    X(qpdf_oh_new_null) X(qpdf_oh_new_stream) X(qpdf_oh_parse) X(qpdf_oh_remove_key) X(qpdf_oh_replace_key) \
    X(qpdf_oh_replace_stream_data) X(qpdf_replace_object) \
    X(qpdf_oh_unparse) X(qpdf_oh_unparse_resolved) X(qpdf_read_memory) X(qpdf_set_attempt_recovery) \
    X(qpdf_set_compress_streams) X(qpdf_set_deterministic_ID) X(qpdf_set_object_stream_mode) \
    X(qpdf_set_suppress_warnings) X(qpdf_silence_errors) X(qpdf_write)

/// qpdf's functions, one field each, named and typed as qpdf declares them.
typedef struct SIQPDF {
#define SI_QPDF_FIELD(name) __typeof__(name) *_Nonnull name;
    SI_QPDF_FUNCTIONS(SI_QPDF_FIELD)
#undef SI_QPDF_FIELD
} SIQPDF;

/// Fills `api` with the functions of the qpdf linked into the executable, after running qpdf's initializers once.
/// Only the release build of signature-ink has it (Scripts/qpdf-static.c, linked by Scripts/link-release); elsewhere
/// it is NULL and qpdf is opened as a shared library.
extern const char *_Nullable si_qpdf_static_load(SIQPDF *_Nonnull api) __attribute__((weak));

/// Fills `api` with the qpdf linked in, when there is one; otherwise opens qpdf's shared library.
///
/// The shared library's functions are bound on first call (RTLD_LAZY), not all at once: binding every function of
/// qpdf, the C++ runtime and GnuTLS when the library is opened cost 1.6 M of the 11.8 M instructions that opening it
/// takes (callgrind), for functions a signing never calls.
/// Returns NULL when every function was found, or else what went wrong: the loader's message or a missing name.
static inline const char *_Nullable si_qpdf_load(SIQPDF *_Nonnull api) {
    if (si_qpdf_static_load != NULL) return si_qpdf_static_load(api);
    const char *const names[] = SI_QPDF_LIBRARIES;
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++)
        library = dlopen(names[i], RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define SI_QPDF_LOOKUP(name) if ((*(void **)&api->name = dlsym(library, #name)) == NULL) return #name;
    SI_QPDF_FUNCTIONS(SI_QPDF_LOOKUP)
#undef SI_QPDF_LOOKUP
    return NULL;
}
