#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/cifar_format.hpp"

namespace cae {

// Images and their labels, as stored in the CIFAR-10 files: image i occupies
// pixels[i * 3072, (i + 1) * 3072) in CHW order (R plane, G plane, B plane).
struct ImageSet {
  std::vector<uint8_t> pixels;
  std::vector<uint8_t> labels;

  size_t size() const { return labels.size(); }
  const uint8_t* image(size_t i) const { return pixels.data() + i * cifar::kImageBytes; }
};

}  // namespace cae
