// Deterministic sums: warp shuffles in a fixed tree, then one value per warp
// combined by warp 0. Same inputs, same launch shape -> same bits, every run
// (no atomics, so no order that depends on scheduling).
#pragma once

namespace v1 {

constexpr unsigned kFullWarpMask = 0xffffffffu;
constexpr int kWarpSize = 32;

// Tree sum over the 32 lanes of a warp; lane 0 receives the total. All 32
// lanes must call it.
template <class T>
__device__ __forceinline__ T warp_sum(T value) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset >>= 1) {
    value += __shfl_down_sync(kFullWarpMask, value, offset);
  }
  return value;
}

// Sum over a 1-D block of kThreads threads; thread 0 receives the total.
// Every thread of the block must call it (it contains a barrier), once per
// kernel: warp_totals (kThreads / 32 floats of shared memory) is not reset.
template <int kThreads, class T>
__device__ __forceinline__ T block_sum(T value, T* warp_totals) {
  static_assert(kThreads % kWarpSize == 0 && kThreads <= 1024, "whole warps only");
  constexpr int kWarps = kThreads / kWarpSize;
  const int lane = threadIdx.x % kWarpSize;
  const int warp = threadIdx.x / kWarpSize;
  value = warp_sum(value);
  if (lane == 0) warp_totals[warp] = value;
  __syncthreads();
  if (warp == 0) {
    value = lane < kWarps ? warp_totals[lane] : T(0);
    value = warp_sum(value);
  }
  return value;
}

}  // namespace v1
