// The CUDA side of the convolution steps: one generic grid-stride kernel
// that runs any item of winograd_conv_items.hpp or winograd_direct_items.hpp,
// and the bias gradient.
#pragma once

#include <cstdint>

namespace cae_winograd {

// item(i) for every i < count; 64-bit indices, so any grid covers any size.
template <class Item>
__global__ void for_each_item_kernel(Item item, int64_t count) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x)
    item(i);
}

// db[o] = sum over images, in image order, of dy[n][o]'s plane sums, in two
// kernels: every (image, channel) plane summed by one warp (each lane a fixed
// strided sum, then a fixed shuffle tree), then the planes of each channel in
// image order. Deterministic, and parallel over images: one block per channel
// left conv5's 3 channels with 3 blocks for 262,144 values each.
constexpr int kPlaneSumWarps = 8;  // planes per block of plane_sums_kernel

__global__ void plane_sums_kernel(const float* __restrict__ dy, float* __restrict__ sums,
                                  int64_t planes, int64_t pixels) {
  const int lane = threadIdx.x % 32;
  // plane is the same for all lanes of a warp: the full-mask shuffles are safe.
  for (int64_t plane = blockIdx.x * int64_t(kPlaneSumWarps) + threadIdx.x / 32; plane < planes;
       plane += int64_t(gridDim.x) * kPlaneSumWarps) {
    const float* values = dy + plane * pixels;
    float sum = 0.0f;
    for (int64_t p = lane; p < pixels; p += 32) sum += values[p];
    for (int offset = 16; offset > 0; offset /= 2)
      sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) sums[plane] = sum;
  }
}

// db[o] = sum_n sums[n][o], n in order.
__global__ void image_order_sum_kernel(const float* __restrict__ sums, float* __restrict__ db,
                                       int64_t images, int64_t channels) {
  for (int64_t o = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; o < channels;
       o += int64_t(gridDim.x) * blockDim.x) {
    float sum = 0.0f;
    for (int64_t n = 0; n < images; ++n) sum += sums[n * channels + o];
    db[o] = sum;
  }
}

}  // namespace cae_winograd
