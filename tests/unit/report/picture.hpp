// Reading a PNG back (with cairo) to check what the figure code drew.
#pragma once

#include <cairo.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "report/color.hpp"
#include "text_contains.hpp"

namespace cae::test {

struct Picture {
  int width = 0;
  int height = 0;
  std::vector<Rgb> pixels;  // row-major, top row first
  Rgb at(int x, int y) const { return pixels[static_cast<std::size_t>(y) * width + x]; }
  std::size_t count(Rgb color) const {
    std::size_t n = 0;
    for (Rgb p : pixels) n += p == color;
    return n;
  }
};

// The decoded picture, or nothing if the file is missing or not a valid PNG.
inline std::optional<Picture> decode_png_file(const std::filesystem::path& path) {
  cairo_surface_t* surface = cairo_image_surface_create_from_png(path.c_str());
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(surface);
    return std::nullopt;
  }
  // Whatever format the PNG decoded to, paint it onto opaque RGB24.
  Picture picture;
  picture.width = cairo_image_surface_get_width(surface);
  picture.height = cairo_image_surface_get_height(surface);
  cairo_surface_t* rgb =
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, picture.width, picture.height);
  cairo_t* cr = cairo_create(rgb);
  cairo_set_source_surface(cr, surface, 0, 0);
  cairo_paint(cr);
  cairo_destroy(cr);
  cairo_surface_flush(rgb);
  const unsigned char* data = cairo_image_surface_get_data(rgb);
  int stride = cairo_image_surface_get_stride(rgb);
  for (int y = 0; y < picture.height; ++y) {
    auto* row = reinterpret_cast<const std::uint32_t*>(data + static_cast<std::size_t>(y) * stride);
    for (int x = 0; x < picture.width; ++x) {
      std::uint32_t p = row[x];
      picture.pixels.push_back(Rgb{static_cast<std::uint8_t>(p >> 16),
                                   static_cast<std::uint8_t>(p >> 8),
                                   static_cast<std::uint8_t>(p)});
    }
  }
  cairo_surface_destroy(rgb);
  cairo_surface_destroy(surface);
  return picture;
}

using test_support::contains;

}  // namespace cae::test
