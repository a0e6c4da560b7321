#include "report/rgb_image.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace cae {
namespace {

// Large enough for any report picture, small enough that a bogus size fails
// loudly instead of allocating gigabytes.
constexpr int kMaxSide = 16384;

std::uint8_t lerp_channel(std::uint8_t from, std::uint8_t to, double t) {
  double value = from + (static_cast<double>(to) - from) * t;
  return static_cast<std::uint8_t>(std::clamp(std::lround(value), 0L, 255L));
}

}  // namespace

Rgb mix(Rgb from, Rgb to, double t) {
  t = std::clamp(t, 0.0, 1.0);
  return Rgb{lerp_channel(from.r, to.r, t), lerp_channel(from.g, to.g, t),
             lerp_channel(from.b, to.b, t)};
}

RgbImage::RgbImage(int width, int height, Rgb background) : width_(width), height_(height) {
  if (width <= 0 || height <= 0 || width > kMaxSide || height > kMaxSide) {
    throw std::invalid_argument("image size " + std::to_string(width) + "x" +
                                std::to_string(height) + " is out of range (1.." +
                                std::to_string(kMaxSide) + " per side)");
  }
  pixels_.resize(static_cast<std::size_t>(width) * height * 3);
  for (std::size_t i = 0; i < pixels_.size(); i += 3) {
    pixels_[i] = background.r;
    pixels_[i + 1] = background.g;
    pixels_[i + 2] = background.b;
  }
}

Rgb RgbImage::at(int x, int y) const {
  const std::uint8_t* p = &pixels_[(static_cast<std::size_t>(y) * width_ + x) * 3];
  return Rgb{p[0], p[1], p[2]};
}

void RgbImage::set(int x, int y, Rgb color) {
  if (!contains(x, y)) return;
  std::uint8_t* p = &pixels_[(static_cast<std::size_t>(y) * width_ + x) * 3];
  p[0] = color.r;
  p[1] = color.g;
  p[2] = color.b;
}

void RgbImage::blend(int x, int y, Rgb color, double coverage) {
  if (!contains(x, y) || !(coverage > 0.0)) return;
  set(x, y, mix(at(x, y), color, coverage));
}

void RgbImage::fill_rect(int x, int y, int width, int height, Rgb color) {
  int x_begin = std::max(x, 0);
  int y_begin = std::max(y, 0);
  int x_end = std::min(x + width, width_);
  int y_end = std::min(y + height, height_);
  for (int row = y_begin; row < y_end; ++row) {
    for (int column = x_begin; column < x_end; ++column) set(column, row, color);
  }
}

void RgbImage::stroke_rect(int x, int y, int width, int height, Rgb color) {
  if (width <= 0 || height <= 0) return;
  fill_rect(x, y, width, 1, color);
  fill_rect(x, y + height - 1, width, 1, color);
  fill_rect(x, y, 1, height, color);
  fill_rect(x + width - 1, y, 1, height, color);
}

void RgbImage::draw_image(const RgbImage& source, int x, int y) {
  for (int row = 0; row < source.height(); ++row) {
    for (int column = 0; column < source.width(); ++column) {
      set(x + column, y + row, source.at(column, row));
    }
  }
}

}  // namespace cae
