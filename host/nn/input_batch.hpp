// A batch as the network sees it: the images filled from the set (scaled to
// [0, 1]), then put through the model's input transform on the host when it
// has one (data/input_transform.hpp). The training and extraction loops use
// nn/batch_transform.hpp instead, which runs patch whitening's convolution
// on their backend.
#pragma once

#include <vector>

#include "data/batcher.hpp"
#include "data/input_transform.hpp"

namespace cae::nn {

// fill_batch, then the transform (nullptr: none).
void fill_input_batch(const ImageSet& images, const std::vector<size_t>& indices,
                      const InputTransform* transform, float* out_nchw);

}  // namespace cae::nn
