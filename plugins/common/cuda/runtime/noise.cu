// add_normal_noise (ABI 1.12): y = x + sigma * cae_normal_draw(seed, first +
// i), i the value's index in the boundary order (NCHW). A 4-D tensor is
// stored channels-last here, so each thread turns its stored position back
// into the NCHW index whose draw it adds: the noise a value gets does not
// depend on the layout that holds it.
#include "cae/backend.h"
#include "kernel_queries.cuh"
#include "runtime_launch.cuh"
#include "runtime_ops.hpp"
#include "runtime_tensor.hpp"

namespace cae_cuda {

namespace {

__global__ void __launch_bounds__(kThreads)
    normal_noise_kernel(const float* x, float* y, int64_t count, int64_t channels, int64_t pixels,
                        bool channels_last, float sigma, uint64_t seed, uint64_t first) {
  begin_after_prior_kernels();
  const int64_t step = int64_t(gridDim.x) * kThreads;
  for (int64_t s = int64_t(blockIdx.x) * kThreads + threadIdx.x; s < count; s += step) {
    int64_t index = s;
    if (channels_last) {
      // s = (n * pixels + p) * channels + c  ->  (n * channels + c) * pixels + p
      const int64_t image = channels * pixels;
      const int64_t n = s / image, within = s - n * image;
      const int64_t p = within / channels, c = within - p * channels;
      index = n * image + c * pixels + p;
    }
    y[s] = x[s] + sigma * cae_normal_draw(seed, first + uint64_t(index));
  }
}

}  // namespace

void add_normal_noise(Context& ctx, const cae_plugin::Shape& shape, const float* x, float* y,
                      float sigma, uint64_t seed, uint64_t first_index) {
  const int64_t count = shape.count();
  if (count == 0) return;
  const bool channels_last = stored_channels_last(shape);
  const int64_t channels = channels_last ? shape[1] : 1;
  const int64_t pixels = channels_last ? shape[2] * shape[3] : 1;
  launch(ctx, "normal_noise_kernel", normal_noise_kernel,
         cae_plugin::cuda::grid_for(count, kThreads), kThreads, 0, x, y, count, channels, pixels,
         channels_last, sigma, seed, first_index);
}

}  // namespace cae_cuda
