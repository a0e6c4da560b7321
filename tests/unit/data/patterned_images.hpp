#pragma once
// ImageSets whose every byte depends on (image, channel, row, column), so a
// reader that swaps rows for columns or mixes up channels is caught.

#include <cstdint>
#include <string>
#include <vector>

#include "data/data_error.hpp"
#include "data/image_set.hpp"

namespace cae::test {

inline uint8_t patterned_value(size_t image, size_t c, size_t y, size_t x) {
  return uint8_t((image * 31 + c * 71 + y * 7 + x * 3 + (y * x) % 5) % 256);
}

inline ImageSet patterned_images(const std::vector<uint8_t>& labels, int channels, int side) {
  ImageSet images;
  images.labels = labels;
  images.channels = channels;
  images.side = side;
  images.pixels.resize(images.size() * images.image_bytes());
  const size_t s = size_t(side);
  for (size_t i = 0; i < images.size(); ++i) {
    for (size_t c = 0; c < size_t(channels); ++c) {
      for (size_t y = 0; y < s; ++y) {
        for (size_t x = 0; x < s; ++x) {
          images.pixels[i * images.image_bytes() + (c * s + y) * s + x] = patterned_value(i, c, y, x);
        }
      }
    }
  }
  return images;
}

// Every image of `read` (in memory or on disk) equals the same image of `expected`.
inline bool same_images(const ImageSet& read, const ImageSet& expected) {
  if (read.size() != expected.size() || read.image_bytes() != expected.image_bytes()) return false;
  std::vector<uint8_t> image(read.image_bytes());
  for (size_t i = 0; i < read.size(); ++i) {
    read.copy_image(i, image.data());
    if (!std::equal(image.begin(), image.end(), expected.image(i))) return false;
  }
  return true;
}

// The DataError message of `load`, or "" when it does not throw one.
template <class Load>
std::string data_error_of(Load load) {
  try {
    load();
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}

}  // namespace cae::test
