// SPDX-License-Identifier: Apache-2.0
// glibc's allocator settings (mallopt), which the Glibc module does not bring in.
#include <malloc.h>
