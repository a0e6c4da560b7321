// An 8-bit RGB raster that the report's pictures are drawn into.
#pragma once

#include <cstdint>
#include <vector>

namespace cae {

struct Rgb {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;
};

inline bool operator==(Rgb a, Rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; }
inline bool operator!=(Rgb a, Rgb b) { return !(a == b); }

// Linear mix: t = 0 gives `from`, t = 1 gives `to` (t is clamped to [0, 1]).
Rgb mix(Rgb from, Rgb to, double t);

// Row-major, top row first, 3 bytes per pixel: the layout PNG encoders take.
// Every drawing call clips to the image, so callers can draw partly outside
// it without checks of their own.
class RgbImage {
 public:
  // Throws std::invalid_argument for a non-positive or absurdly large size.
  RgbImage(int width, int height, Rgb background = Rgb{255, 255, 255});

  int width() const { return width_; }
  int height() const { return height_; }
  bool contains(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }

  // Precondition: contains(x, y).
  Rgb at(int x, int y) const;

  void set(int x, int y, Rgb color);
  // Paints `color` over the pixel with opacity `coverage` in [0, 1]; used by
  // the anti-aliased shapes.
  void blend(int x, int y, Rgb color, double coverage);
  void fill_rect(int x, int y, int width, int height, Rgb color);
  // A one-pixel-wide frame just inside the rectangle.
  void stroke_rect(int x, int y, int width, int height, Rgb color);
  // Copies `source` with its top-left corner at (x, y).
  void draw_image(const RgbImage& source, int x, int y);

  const std::uint8_t* data() const { return pixels_.data(); }
  int stride_bytes() const { return 3 * width_; }

 private:
  int width_;
  int height_;
  std::vector<std::uint8_t> pixels_;
};

}  // namespace cae
