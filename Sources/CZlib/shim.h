// SPDX-License-Identifier: Apache-2.0
// zlib, for its CRC-32 (the PNG writer's chunk checksums). libpng links it already.
#ifndef SIGNATURE_INK_CZLIB_SHIM_H
#define SIGNATURE_INK_CZLIB_SHIM_H

#include <zlib.h>

#endif
