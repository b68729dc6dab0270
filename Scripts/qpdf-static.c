// SPDX-License-Identifier: Apache-2.0
// qpdf linked into the release build of signature-ink, compiled and linked by Scripts/link-release with qpdf's archive.
//
// Opening libqpdf.so loads the C++ runtime, GnuTLS and the nine libraries GnuTLS needs, and binds their symbols:
// 4.2 ms of a 15 ms `signature-ink sign` of a ten-page form, 12 M of its 27 M instructions. Linked in, qpdf uses the
// executable's own C++ runtime, and this file gives it what it needs from GnuTLS:
//
// - the hash functions, answered by swift-crypto (Sources/SignatureInkForms/QPDF/QPDFDigest.swift): qpdf takes the
//   MD5 of every file it writes for its deterministic /ID, and SHA-2 for AES-256 encryption;
// - random bytes, from the kernel (getrandom);
// - the ciphers, for encrypted files only, from the real GnuTLS, opened on first use.
//
// qpdf's static initializers (58 of them, 0.2 M instructions) would run at the start of every process, a render's
// too. Their `.init_array` sections are renamed `si_qpdf_initializers` (and made plain data) in the copy of the
// archive that is linked, and si_qpdf_static_load runs them, once, before the first qpdf call.
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
// The header's nullability marks are Clang's; GCC compiles this file too.
#ifndef __clang__
#define _Nonnull
#define _Nullable
#endif
#include "shim.h"

typedef void (*si_initializer)(void);
extern si_initializer __start_si_qpdf_initializers[];
extern si_initializer __stop_si_qpdf_initializers[];

static void si_qpdf_initialize(void) {
    for (si_initializer *f = __start_si_qpdf_initializers; f < __stop_si_qpdf_initializers; f++) (*f)();
}

const char *si_qpdf_static_load(SIQPDF *api) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, si_qpdf_initialize);
#define SI_QPDF_STATIC(name) api->name = name;
    SI_QPDF_FUNCTIONS(SI_QPDF_STATIC)
#undef SI_QPDF_STATIC
    return NULL;
}

// GnuTLS's numbers (gnutls/gnutls.h), which this file does not include: Debian's libqpdf-dev does not bring it.
enum {
    SI_GNUTLS_E_MEMORY_ERROR = -25,
    SI_GNUTLS_E_INVALID_REQUEST = -50,
    SI_GNUTLS_E_RANDOM_FAILED = -206,
    SI_GNUTLS_E_UNIMPLEMENTED_FEATURE = -1250
};

void *si_qpdf_digest_start(int algorithm);
void si_qpdf_digest_update(void *state, const void *bytes, long count);
void si_qpdf_digest_finish(void *state, void *out);

// qpdf adds what it writes to the MD5 of its /ID a few bytes at a time (tokens, spaces): they are gathered here and
// handed to swift-crypto 4 KiB at a time, which took the digest of a ten-page form from 0.8 M instructions to 0.1 M.
typedef struct si_digest {
    void *state;
    size_t used;
    unsigned char pending[4096];
} si_digest;

static void si_digest_flush(si_digest *d) {
    if (d->used > 0) si_qpdf_digest_update(d->state, d->pending, (long)d->used);
    d->used = 0;
}

int gnutls_hash_init(void **digest, int algorithm) {
    si_digest *d = malloc(sizeof *d);
    if (d == NULL) return SI_GNUTLS_E_MEMORY_ERROR;
    d->state = si_qpdf_digest_start(algorithm);
    if (d->state == NULL) {
        free(d);
        return SI_GNUTLS_E_UNIMPLEMENTED_FEATURE;
    }
    d->used = 0;
    *digest = d;
    return 0;
}

int gnutls_hash(void *digest, const void *text, size_t size) {
    si_digest *d = digest;
    if (size >= sizeof d->pending) {
        si_digest_flush(d);
        si_qpdf_digest_update(d->state, text, (long)size);
    } else {
        if (d->used + size > sizeof d->pending) si_digest_flush(d);
        memcpy(d->pending + d->used, text, size);
        d->used += size;
    }
    return 0;
}

void gnutls_hash_deinit(void *digest, void *output) {
    si_digest *d = digest;
    si_digest_flush(d);
    si_qpdf_digest_finish(d->state, output);
    free(d);
}

int gnutls_rnd(int level, void *data, size_t length) {
    (void)level;
    unsigned char *p = data;
    while (length > 0) {
        ssize_t got = getrandom(p, length, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return SI_GNUTLS_E_RANDOM_FAILED;
        p += got;
        length -= (size_t)got;
    }
    return 0;
}

// The real GnuTLS, for the ciphers of encrypted files.
static void *si_gnutls;
static void si_gnutls_open(void) { si_gnutls = dlopen("libgnutls.so.30", RTLD_LAZY | RTLD_LOCAL); }
static void *si_gnutls_function(const char *name) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, si_gnutls_open);
    return si_gnutls != NULL ? dlsym(si_gnutls, name) : NULL;
}
#define SI_GNUTLS_FORWARD(type, name, parameters, arguments, failure) \
    type name parameters { \
        type(*f) parameters = (type(*) parameters)si_gnutls_function(#name); \
        return f != NULL ? f arguments : failure; \
    }
SI_GNUTLS_FORWARD(int, gnutls_cipher_init, (void **handle, int cipher, const void *key, const void *iv),
                  (handle, cipher, key, iv), SI_GNUTLS_E_UNIMPLEMENTED_FEATURE)
SI_GNUTLS_FORWARD(int, gnutls_cipher_encrypt2, (void *handle, const void *text, size_t length, void *out, size_t room),
                  (handle, text, length, out, room), SI_GNUTLS_E_INVALID_REQUEST)
SI_GNUTLS_FORWARD(int, gnutls_cipher_decrypt2, (void *handle, const void *in, size_t length, void *text, size_t room),
                  (handle, in, length, text, room), SI_GNUTLS_E_INVALID_REQUEST)
SI_GNUTLS_FORWARD(size_t, gnutls_cipher_get_key_size, (int cipher), (cipher), 0)
SI_GNUTLS_FORWARD(const char *, gnutls_strerror, (int error), (error), "GnuTLS (libgnutls.so.30) could not be opened")

void gnutls_cipher_deinit(void *handle) {
    void (*f)(void *) = (void (*)(void *))si_gnutls_function("gnutls_cipher_deinit");
    if (f != NULL) f(handle);
}
