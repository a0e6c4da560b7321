#include "nn/backend_patch_whitening.hpp"

#include <algorithm>

#include "common/parallel.hpp"
#include "plugin/backend_error.hpp"

namespace cae::nn {
namespace {

std::vector<int64_t> image_dims(const PatchWhitening& whitening, size_t count) {
  return {int64_t(count), whitening.channels, whitening.side, whitening.side};
}

Tensor upload_filter(Context& context, const PatchWhitening& whitening) {
  Tensor filter =
      context.alloc({whitening.channels, whitening.channels, whitening.patch, whitening.patch});
  filter.upload(whitening.filter);
  return filter;
}

Tensor zero_bias(Context& context, const PatchWhitening& whitening) {
  Tensor bias = context.alloc({whitening.channels});
  bias.upload(std::vector<float>(size_t(whitening.channels), 0.0f));
  return bias;
}

}  // namespace

BackendPatchWhitening::BackendPatchWhitening(Context& context, const PatchWhitening& whitening)
    : context_(context),
      whitening_(whitening),
      filter_(upload_filter(context, whitening)),
      bias_(zero_bias(context, whitening)) {}

std::string BackendPatchWhitening::refusal() {
  Tensor input = context_.alloc(image_dims(whitening_, 1));
  Tensor output = context_.alloc(input.dims());
  input.upload(std::vector<float>(whitening_.image_values(), 0.0f));
  try {
    context_.conv2d_forward(input, filter_, bias_, output, false);
    context_.synchronize();
  } catch (const BackendError& error) {
    if (error.status() != CAE_STATUS_UNSUPPORTED) throw;
    return error.what();
  }
  return "";
}

void BackendPatchWhitening::apply(float* images, size_t count) {
  const size_t values = whitening_.image_values();
  const size_t plane = size_t(whitening_.side) * size_t(whitening_.side);
  for (size_t first = 0; first < count; first += kChunkImages) {
    const size_t n = std::min(kChunkImages, count - first);
    // The tail's shape is a tensor pair of its own, allocated when it comes.
    if (!input_ || input_.dims()[0] != int64_t(n)) {
      input_ = context_.alloc(image_dims(whitening_, n));
      output_ = context_.alloc(input_.dims());
    }
    float* chunk = images + first * values;
    centred_.resize(n * values);
    // The one pass the host makes over the values, on its cores: a GPU
    // convolves a chunk in less time than one core takes to centre it.
    const int threads = int(std::min<size_t>(size_t(resolve_thread_count(0)),
                                             std::max<size_t>(1, n / kImagesPerThread)));
    parallel_chunks(threads, int64_t(n), [&](int64_t begin, int64_t end) {
      for (size_t i = size_t(begin); i < size_t(end); ++i) {
        for (int c = 0; c < whitening_.channels; ++c) {
          const float mean = whitening_.mean[size_t(c)];
          const size_t at = i * values + size_t(c) * plane;
          for (size_t k = 0; k < plane; ++k) centred_[at + k] = chunk[at + k] - mean;
        }
      }
    });
    input_.upload(centred_);
    context_.conv2d_forward(input_, filter_, bias_, output_, false);
    output_.download(chunk, n * values);
  }
}

}  // namespace cae::nn
