#include "report/bitmap_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

// The header defines everything `static`; not every function is used here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb/stb_easy_font.h>
#pragma GCC diagnostic pop

namespace cae {
namespace {

// Cap height 7 plus the 2 pixels descenders reach below it.
constexpr int kLineHeight = 9;
// stb_easy_font's own guidance: about 270 bytes of vertices per character.
constexpr std::size_t kVertexBytesPerChar = 512;
constexpr std::size_t kBytesPerQuad = 4 * 16;  // four vertices of x, y, z floats + RGBA

// The font indexes a table with (c - 32): keep it within printable ASCII.
std::string printable(std::string_view text) {
  std::string result(text);
  for (char& c : result) {
    auto code = static_cast<unsigned char>(c);
    if (code < 32 || code > 126) c = '?';
  }
  return result;
}

// An axis-aligned rectangle of the glyphs in unscaled text coordinates.
struct GlyphRect {
  float x0, y0, x1, y1;
};

std::vector<GlyphRect> glyph_rects(std::string_view text) {
  std::string line = printable(text);
  std::vector<char> vertices(line.size() * kVertexBytesPerChar + kBytesPerQuad);
  int quads = stb_easy_font_print(0.0f, 0.0f, line.data(), nullptr, vertices.data(),
                                  static_cast<int>(vertices.size()));
  std::vector<GlyphRect> rects;
  rects.reserve(static_cast<std::size_t>(quads));
  for (int q = 0; q < quads; ++q) {
    // Vertices 0 and 2 of each quad are opposite corners; x and y lead each vertex.
    const char* quad = vertices.data() + q * kBytesPerQuad;
    float first[2];
    float third[2];
    std::memcpy(first, quad, sizeof first);
    std::memcpy(third, quad + 2 * 16, sizeof third);
    rects.push_back(GlyphRect{std::min(first[0], third[0]), std::min(first[1], third[1]),
                              std::max(first[0], third[0]), std::max(first[1], third[1])});
  }
  return rects;
}

int to_pixels(float unscaled, int scale) {
  return static_cast<int>(std::lround(unscaled * static_cast<float>(scale)));
}

}  // namespace

int text_width(std::string_view text, int scale) {
  // The ink's extent, not the font's advance (which ends with spacing), so
  // centred and right-aligned labels sit where they look like they should.
  float right = 0.0f;
  for (const GlyphRect& r : glyph_rects(text)) right = std::max(right, r.x1);
  return to_pixels(right, std::max(scale, 1));
}

int text_height(int scale) { return kLineHeight * std::max(scale, 1); }

void draw_text(RgbImage& image, int x, int y, std::string_view text, Rgb color, int scale) {
  scale = std::max(scale, 1);
  for (const GlyphRect& r : glyph_rects(text)) {
    int left = to_pixels(r.x0, scale);
    int top = to_pixels(r.y0, scale);
    image.fill_rect(x + left, y + top, to_pixels(r.x1, scale) - left, to_pixels(r.y1, scale) - top,
                    color);
  }
}

void draw_text_vertical(RgbImage& image, int x, int y, std::string_view text, Rgb color,
                        int scale) {
  scale = std::max(scale, 1);
  int length = text_width(text, scale);
  // Text coordinate u (along the line) runs upwards from the box's bottom;
  // v (down the glyphs) runs rightwards from its left side.
  for (const GlyphRect& r : glyph_rects(text)) {
    int u0 = to_pixels(r.x0, scale);
    int u1 = to_pixels(r.x1, scale);
    int v0 = to_pixels(r.y0, scale);
    int v1 = to_pixels(r.y1, scale);
    image.fill_rect(x + v0, y + length - u1, v1 - v0, u1 - u0, color);
  }
}

}  // namespace cae
