#include "nn/input_batch.hpp"

namespace cae::nn {

void fill_input_batch(const ImageSet& images, const std::vector<size_t>& indices,
                      const InputTransform* transform, float* out_nchw) {
  fill_batch(images, indices, out_nchw);
  if (transform) transform->apply(out_nchw, indices.size());
}

}  // namespace cae::nn
