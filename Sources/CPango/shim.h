// SPDX-License-Identifier: Apache-2.0
// Pango's Cairo rendering and its fontconfig font map, as the render target's text layer uses them.
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
