// What every naive kernel shares: a 1-D grid with one thread per output
// element. cuda::grid_for caps the grid, so kernels walk their elements with a
// grid-stride loop; below the cap each thread handles exactly one element.
#pragma once

#include <cstdint>

#include "cuda_support.hpp"

namespace naive {

constexpr unsigned kThreadsPerBlock = 256;

inline unsigned blocks_for(int64_t elements) {
  return cae_plugin::cuda::grid_for(elements, kThreadsPerBlock);
}

__device__ __forceinline__ int64_t global_thread_index() {
  return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ int64_t grid_thread_count() {
  return static_cast<int64_t>(gridDim.x) * blockDim.x;
}

}  // namespace naive
