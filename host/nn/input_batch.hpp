// A batch as the network sees it: the images filled from the set (scaled to
// [0, 1]), then put through the model's input transform when it has one
// (data/input_transform.hpp).
#pragma once

#include <vector>

#include "data/batcher.hpp"
#include "data/input_transform.hpp"

namespace cae::nn {

// Applies `transform` (nullptr: nothing) to `count` filled images in place.
void transform_batch(const InputTransform* transform, float* images, size_t count);

// fill_batch, then the transform.
void fill_input_batch(const ImageSet& images, const std::vector<size_t>& indices,
                      const InputTransform* transform, float* out_nchw);

}  // namespace cae::nn
