// SPDX-License-Identifier: Apache-2.0
// Numbers as Cairo's PDF output prints them, without glibc's general formatter (cairo_numbers.c).
#ifndef SI_CAIRO_NUMBERS_H
#define SI_CAIRO_NUMBERS_H

#include <stddef.h>

/// Writes `value` with `precision` digits after the decimal point, exactly as `snprintf(out, size, "%.*f",
/// precision, value)` does in the C locale with the default rounding mode: the decimal nearest the double's exact
/// value, ties to even, a minus sign whenever the sign bit is set. At most `size - 1` characters are stored, then a
/// NUL (nothing when `size` is 0). Returns the length of the whole text, or -1 for what it does not handle, for the
/// caller to hand to snprintf: a precision outside 0...18, a value that is not finite or of magnitude 2^63 or more.
int si_format_fixed(char *out, size_t size, double value, int precision);

/// Writes `value` in decimal, as `snprintf(out, size, "%ld", value)` does; returns the length of the whole text.
int si_format_integer(char *out, size_t size, long value);

/// glibc's `__snprintf_chk`, which a fortified build's `snprintf` calls, with the formats Cairo's PDF output prints
/// numbers in (`%f`, `%.18f`, `%.*f`, `%d` and `%ld`) written by the two functions above and every other format
/// passed to glibc's `__vsnprintf_chk`. The release link points Cairo's output stream at it (Scripts/link-release).
int si_cairo_snprintf_chk(char *out, size_t size, int flag, size_t object_size, const char *format, ...);

#endif
