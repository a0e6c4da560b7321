#pragma once
// A whole image set's pixels as the network's input values (fill_batch's
// [0, 1] floats), for tests that transform every image at once.

#include <vector>

#include "data/batcher.hpp"
#include "data/image_set.hpp"

namespace cae {

inline std::vector<float> all_images(const ImageSet& set) {
  std::vector<size_t> indices(set.size());
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = i;
  std::vector<float> values(set.size() * set.image_bytes());
  fill_batch(set, indices, values.data());
  return values;
}

}  // namespace cae
