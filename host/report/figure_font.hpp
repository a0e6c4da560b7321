// The face figure text is drawn in: DejaVu Sans, loaded from its file through
// cairo's FreeType backend. Naming the file ourselves keeps fontconfig out of
// the picture, so a machine without a fontconfig configuration (no
// /etc/fonts) draws the same text and prints no library noise.
#pragma once

#include <cairo.h>

namespace cae {

// The regular or bold face, loaded on first use and kept for the process;
// nullptr when no font file was found. The first caller that finds none
// prints one line saying where it looked and that figures are drawn
// without text.
cairo_font_face_t* figure_font(bool bold);

}  // namespace cae
