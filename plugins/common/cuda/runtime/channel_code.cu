// channel_code (ABI 1.13): the feature encoders' linear part at each pixel.
// A 4-D tensor is stored channels-last here, so a pixel's channels are
// contiguous: one warp takes a pixel, its lanes read the channels side by
// side (coalesced), the centred code's sum is reduced across the lanes in a
// fixed tree (the same bits on every run), and the lanes write the pixel's
// outputs. The pixel's values are read twice; the second read finds them in
// the cache the first just filled.
#include <algorithm>

#include "cae/backend.h"
#include "runtime_launch.cuh"
#include "runtime_ops.hpp"

namespace cae_cuda {

namespace {

constexpr unsigned kLanes = 32;
constexpr unsigned kWarpsPerBlock = kThreads / kLanes;

__device__ float encoded(float v, bool relu) { return relu ? fmaxf(v, 0.0f) : v; }

__global__ void __launch_bounds__(kThreads)
    channel_code_kernel(const float* x, float* y, int64_t pixels, int64_t channels, int32_t code,
                        float bias, bool relu) {
  begin_after_prior_kernels();
  const unsigned lane = threadIdx.x % kLanes;
  const int64_t step = int64_t(gridDim.x) * kWarpsPerBlock;
  for (int64_t pixel = int64_t(blockIdx.x) * kWarpsPerBlock + threadIdx.x / kLanes; pixel < pixels;
       pixel += step) {
    const float* in = x + pixel * channels;
    if (code == CAE_CHANNEL_CODE_SPLIT) {
      float* out = y + pixel * 2 * channels;
      for (int64_t c = lane; c < channels; c += kLanes) {
        const float v = in[c];
        out[c] = encoded(v + bias, relu);
        out[channels + c] = encoded(-v + bias, relu);
      }
      continue;
    }
    float sum = 0.0f;
    for (int64_t c = lane; c < channels; c += kLanes) sum += in[c];
    for (unsigned offset = kLanes / 2; offset > 0; offset /= 2) {
      sum += __shfl_xor_sync(0xFFFFFFFFu, sum, offset);
    }
    const float mean = sum / float(channels);
    float* out = y + pixel * channels;
    for (int64_t c = lane; c < channels; c += kLanes) out[c] = encoded(in[c] - mean + bias, relu);
  }
}

}  // namespace

void channel_code(Context& ctx, const cae_plugin::ChannelCodeDims& dims, const float* x, float* y,
                  int32_t code, float bias, bool relu) {
  const int64_t pixels = dims.images * dims.pixels;
  if (pixels == 0 || dims.channels == 0) return;
  const int64_t blocks = std::min<int64_t>((pixels + kWarpsPerBlock - 1) / kWarpsPerBlock, 1 << 16);
  launch(ctx, "channel_code_kernel", channel_code_kernel, unsigned(blocks), kThreads, 0, x, y,
         pixels, dims.channels, code, bias, relu);
}

}  // namespace cae_cuda
