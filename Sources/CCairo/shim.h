// SPDX-License-Identifier: Apache-2.0
// Cairo's image and PDF surfaces, as the render target uses them.
#include <cairo.h>
#include <cairo-pdf.h>
// The FreeType font backend, to open every face of the project's fonts once (ProjectFonts.openEveryFace).
#include <cairo-ft.h>
