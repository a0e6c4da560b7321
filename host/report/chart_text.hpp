// Text in figures: DejaVu Sans through cairo's text API (report/figure_font
// finds the file), anti-aliased. Without a font file, text is measured by
// estimate and not drawn.
#pragma once

#include <cairo.h>

#include <string>

#include "report/color.hpp"

namespace cae {

enum class Align { kStart, kCenter, kEnd };

struct TextStyle {
  double size = 13.0;  // pixels
  bool bold = false;
  Rgb color = kInk;
};

// Width in pixels of one line of `text` in `style`; works without a figure,
// so layouts can be planned before the surface exists.
double text_width(const std::string& text, const TextStyle& style);
// Height of a line's box (ascent + descent) in `style`.
double text_height(const TextStyle& style);

// Draws one line of text anchored at (x, y): `horizontal` says whether x is
// its left end, middle or right end, `vertical` whether y is the top, middle
// or bottom of its box. `angle_degrees` turns the text counter-clockwise
// around the anchor (90 reads bottom to top, as on a vertical axis).
void draw_text(cairo_t* cr, double x, double y, const std::string& text, const TextStyle& style,
               Align horizontal = Align::kStart, Align vertical = Align::kStart,
               double angle_degrees = 0.0);

void set_color(cairo_t* cr, Rgb color);

}  // namespace cae
