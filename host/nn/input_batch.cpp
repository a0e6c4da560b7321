#include "nn/input_batch.hpp"

namespace cae::nn {

void transform_batch(const InputTransform* transform, float* images, size_t count) {
  if (transform) transform->apply(images, count);
}

void fill_input_batch(const ImageSet& images, const std::vector<size_t>& indices,
                      const InputTransform* transform, float* out_nchw) {
  fill_batch(images, indices, out_nchw);
  transform_batch(transform, out_nchw, indices.size());
}

}  // namespace cae::nn
