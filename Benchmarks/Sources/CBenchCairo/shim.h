// SPDX-License-Identifier: Apache-2.0
// Cairo for the Raster suite and the timing harness: the fill stage measured alone, and Cairo's own PNG writer
// as the size reference. The library keeps its Cairo wrapper internal, so the benchmarks bind Cairo themselves.
#include <cairo.h>
