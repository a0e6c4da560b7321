// Fixed-order sums for a warp and a block: the same inputs are always added
// in the same order (no atomics), so results are bit-reproducible.
#pragma once

#include <cuda_runtime.h>

namespace cae_v2 {

// Tree sum over the 32 lanes of a full warp; lane 0 gets the total.
template <class T>
__device__ __forceinline__ T warp_sum(T value) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  return value;
}

// Sum over a block of exactly kThreads threads; thread 0 gets the total. At
// most one call per kernel (its shared array is not re-synchronised).
template <int kThreads, class T>
__device__ T block_sum(T value) {
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps, at most 1024 threads");
  constexpr int kWarps = kThreads / 32;
  __shared__ T warp_totals[kWarps];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  value = warp_sum(value);
  if (lane == 0) warp_totals[warp] = value;
  __syncthreads();
  T total = T(0);
  if (warp == 0) {
    total = lane < kWarps ? warp_totals[lane] : T(0);
    total = warp_sum(total);
  }
  return total;
}

}  // namespace cae_v2
