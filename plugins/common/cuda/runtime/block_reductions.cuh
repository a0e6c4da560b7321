// Fixed-order sums inside one block of kThreads: the same inputs give the
// same bits on every run (reductions.cu, linear_loss.cu).
#pragma once

#include "runtime_launch.cuh"

namespace cae_cuda {

template <class T>
__device__ __forceinline__ T warp_total(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Fixed-order sum over a block of kThreads; thread 0 gets it. `shared` holds
// one value per warp; the trailing barrier lets the caller reuse it.
template <class T>
__device__ T block_total(T v, T* shared) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_total(v);
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  T total = T(0);
  if (warp == 0) {
    total = lane < int(kThreads / 32) ? shared[lane] : T(0);
    total = warp_total(total);
  }
  __syncthreads();
  return total;
}

}  // namespace cae_cuda
