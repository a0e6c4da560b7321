#include "graph_run_contents.hpp"

#include <algorithm>

namespace conformance {
namespace {

namespace nn = cae::nn;

int64_t batch_of(const nn::GraphSpec& spec) {
  return spec.input >= 0 ? spec.tensors[size_t(spec.input)].dims[0] : 1;
}

// The bound tensors that hold one image per entry of the batch.
std::vector<size_t> image_tensors(const nn::GraphSpec& spec) {
  std::vector<size_t> found;
  for (const int32_t index : {spec.input, spec.target, spec.output}) {
    if (index >= 0 && spec.tensors[size_t(index)].dims[0] == batch_of(spec)) {
      found.push_back(size_t(index));
    }
  }
  return found;
}

template <typename Values>
void roll_all(const nn::GraphSpec& spec, std::vector<Values>& tensors) {
  const int64_t batch = batch_of(spec);
  for (const size_t index : image_tensors(spec)) {
    Values& values = tensors[index];
    if (values.empty()) continue;  // not held (an output the draw leaves to the graph)
    const size_t image = values.size() / size_t(batch);
    std::rotate(values.begin(), values.begin() + std::ptrdiff_t(image), values.end());
  }
}

}  // namespace

bool rolls_images(const nn::GraphSpec& spec) {
  const std::vector<size_t> images = image_tensors(spec);
  const bool writes_images =
      std::find(images.begin(), images.end(), size_t(spec.output)) != images.end();
  return writes_images && batch_of(spec) > 1;
}

void roll_images(const nn::GraphSpec& spec, std::vector<std::vector<float>>& tensors) {
  roll_all(spec, tensors);
}

void roll_images(const nn::GraphSpec& spec, std::vector<cae_ref::Vec>& tensors) {
  roll_all(spec, tensors);
}

}  // namespace conformance
