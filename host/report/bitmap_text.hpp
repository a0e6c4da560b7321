// Small pixel text for labels inside the report's pictures.
//
// Glyphs come from stb_easy_font (public-domain vector-less bitmap font built
// from rectangles), which we rasterise at an integer scale so every stroke
// stays crisp. Printable ASCII only; anything else is drawn as '?'.
#pragma once

#include <string_view>

#include "report/rgb_image.hpp"

namespace cae {

// Size of the box a line of text occupies at `scale` (1 = 7 px capitals).
// The height includes room for descenders (g, p, y).
int text_width(std::string_view text, int scale = 1);
int text_height(int scale = 1);

// Draws one line of text with the top-left of its box at (x, y).
void draw_text(RgbImage& image, int x, int y, std::string_view text, Rgb color, int scale = 1);

// Draws text turned 90 degrees counter-clockwise (reading bottom to top), as
// on a chart's vertical axis. The turned box is text_height() wide and
// text_width() tall; its top-left corner goes at (x, y).
void draw_text_vertical(RgbImage& image, int x, int y, std::string_view text, Rgb color,
                        int scale = 1);

}  // namespace cae
