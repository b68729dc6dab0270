// SPDX-License-Identifier: Apache-2.0
// Cairo 1.16 prints every number of a PDF's content (each point of a path, each glyph position) through
// `_cairo_dtostr`, which asks glibc's snprintf for "%f" and then trims the zeros. glibc's floating-point formatter
// works in multi-precision arithmetic and takes about 2,700 instructions a number (callgrind): 6.5 M of the 92 M of
// `signature-ink consent` of the sample study consent, 2,384 numbers. These functions give the same characters in
// about a tenth of that, from the double's exact value in 128-bit integers.
#include "cairo_numbers.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

// glibc's checked formatter (exported by libc.so.6; declared by <stdio.h> only in fortified builds).
extern int __vsnprintf_chk(char *out, size_t size, int flag, size_t object_size, const char *format, va_list ap);

typedef unsigned __int128 u128;

static const uint64_t powers_of_ten[19] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull, 1000000000ull,
    10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull, 100000000000000ull,
    1000000000000000ull, 10000000000000000ull, 100000000000000000ull, 1000000000000000000ull,
};

// Copies the `length` characters at `text` to `out` as snprintf stores them, and returns `length`.
static int store(char *out, size_t size, const char *text, int length) {
    if (size > 0) {
        size_t kept = (size_t)length < size - 1 ? (size_t)length : size - 1;
        memcpy(out, text, kept);
        out[kept] = 0;
    }
    return length;
}

// Writes the decimal digits of `v` so that they end just before `end`; returns where they begin.
static char *digits(char *end, u128 v) {
    // Nineteen digits at a time in 64-bit arithmetic: a 128-bit division is a library call.
    while (v > UINT64_MAX) {
        uint64_t low = (uint64_t)(v % 10000000000000000000ull);
        v /= 10000000000000000000ull;
        for (int k = 0; k < 19; k++) {
            *--end = (char)('0' + low % 10);
            low /= 10;
        }
    }
    // Then two digits a step, from a table of the hundred pairs.
    static const char pairs[201] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    uint64_t w = (uint64_t)v;
    while (w >= 100) {
        unsigned pair = (unsigned)(w % 100);
        w /= 100;
        end -= 2;
        memcpy(end, pairs + 2 * pair, 2);
    }
    if (w >= 10) {
        end -= 2;
        memcpy(end, pairs + 2 * w, 2);
    } else {
        *--end = (char)('0' + w);
    }
    return end;
}

int si_format_fixed(char *out, size_t size, double value, int precision) {
    if (precision < 0 || precision > 18) return -1;
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    int negative = (int)(bits >> 63);
    int exponent = (int)((bits >> 52) & 0x7ff);
    uint64_t mantissa = bits & ((UINT64_C(1) << 52) - 1);
    if (exponent == 0x7ff) return -1;  // infinity or NaN
    if (exponent == 0) {
        exponent = 1;  // subnormal: no implicit bit
    } else {
        mantissa |= UINT64_C(1) << 52;
    }
    // value = mantissa x 2^(exponent - 1075)
    int shift = 1075 - exponent;
    uint64_t scale = powers_of_ten[precision];
    u128 units;  // the value in units of 10^-precision, rounded to the nearest, ties to even
    if (shift <= 0) {
        if (shift < -10) return -1;  // 2^63 or more
        units = ((u128)mantissa << -shift) * scale;
    } else {
        u128 scaled = (u128)mantissa * scale;  // below 2^53 x 10^18 < 2^113
        if (shift >= 128) {
            units = 0;  // below 2^113 / 2^128: under half a unit
        } else {
            units = scaled >> shift;
            u128 rest = scaled - (units << shift), half = (u128)1 << (shift - 1);
            if (rest > half || (rest == half && (units & 1))) units += 1;
        }
    }
    char text[64];
    char *end = text + sizeof text;
    char *first = digits(end, units);
    // At least one digit before the point.
    while (end - first < precision + 1) *--first = '0';
    char result[72];
    int n = 0;
    if (negative) result[n++] = '-';
    int whole = (int)(end - first) - precision;
    memcpy(result + n, first, (size_t)whole);
    n += whole;
    if (precision > 0) {
        result[n++] = '.';
        memcpy(result + n, first + whole, (size_t)precision);
        n += precision;
    }
    return store(out, size, result, n);
}

int si_format_integer(char *out, size_t size, long value) {
    char text[24];
    char *end = text + sizeof text;
    // The magnitude as unsigned, so that LONG_MIN has one.
    unsigned long magnitude = value < 0 ? 0ul - (unsigned long)value : (unsigned long)value;
    char *first = digits(end, magnitude);
    if (value < 0) *--first = '-';
    return store(out, size, first, (int)(end - first));
}

int si_cairo_snprintf_chk(char *out, size_t size, int flag, size_t object_size, const char *format, ...) {
    va_list ap, again;
    va_start(ap, format);
    va_copy(again, ap);
    int n = -1;
    // A size beyond the buffer is glibc's to report; every format not listed is glibc's to write.
    if (size <= object_size && format[0] == '%') {
        if (strcmp(format, "%f") == 0) {
            n = si_format_fixed(out, size, va_arg(ap, double), 6);
        } else if (strcmp(format, "%.18f") == 0) {
            n = si_format_fixed(out, size, va_arg(ap, double), 18);
        } else if (strcmp(format, "%.*f") == 0) {
            int precision = va_arg(ap, int);
            n = si_format_fixed(out, size, va_arg(ap, double), precision);
        } else if (strcmp(format, "%d") == 0) {
            n = si_format_integer(out, size, va_arg(ap, int));
        } else if (strcmp(format, "%ld") == 0) {
            n = si_format_integer(out, size, va_arg(ap, long));
        }
    }
    if (n < 0) n = __vsnprintf_chk(out, size, flag, object_size, format, again);
    va_end(again);
    va_end(ap);
    return n;
}
