// The CUDA side of the convolution steps: one generic grid-stride kernel
// that runs any item of winograd_conv_items.hpp, and the bias gradient.
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

// db[o] = sum over images and pixels of dy[n][o][.]: one block per channel,
// a fixed per-thread order and a fixed tree, so the result is deterministic.
constexpr int kBiasThreads = 256;
__global__ void bias_gradient_kernel(const float* __restrict__ dy, float* __restrict__ db,
                                     int64_t images, int64_t channels, int64_t pixels) {
  __shared__ double partial[kBiasThreads];
  for (int64_t o = blockIdx.x; o < channels; o += gridDim.x) {
    double sum = 0.0;
    // Image by image rather than one flat index: no 64-bit division per element.
    for (int64_t n = 0; n < images; ++n) {
      const float* plane = dy + (n * channels + o) * pixels;
      for (int64_t p = threadIdx.x; p < pixels; p += kBiasThreads) sum += plane[p];
    }
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int half = kBiasThreads / 2; half > 0; half /= 2) {
      if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
      __syncthreads();
    }
    if (threadIdx.x == 0) db[o] = static_cast<float>(partial[0]);
    __syncthreads();
  }
}

}  // namespace cae_winograd
