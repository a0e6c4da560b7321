// Mean squared error: a first pass computes the gradient and one partial sum
// of squared differences per block (warp-shuffle tree), a one-block second
// pass adds the partials in a fixed order. The number of blocks depends on the
// element count only, so the loss is bit-identical run to run.
#pragma once

#include <cstdint>

#include "v1_reductions.cuh"

namespace v1 {

constexpr int kLossThreads = 256;
constexpr int kLossMaxBlocks = 1024;  // also the second pass's input size bound

// partial[blockIdx.x] = sum over this block's elements of (pred - target)^2;
// grad (if not null) = grad_scale * (pred - target).
__global__ void __launch_bounds__(kLossThreads)
    mse_partial_kernel(const float* pred, const float* target, float* grad, float* partial,
                       int64_t count, float grad_scale) {
  __shared__ float warp_totals[kLossThreads / kWarpSize];
  const int64_t stride = static_cast<int64_t>(gridDim.x) * kLossThreads;
  float sum = 0.0f;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * kLossThreads + threadIdx.x; i < count;
       i += stride) {
    const float diff = pred[i] - target[i];
    sum = fmaf(diff, diff, sum);
    if (grad != nullptr) grad[i] = grad_scale * diff;
  }
  sum = block_sum<kLossThreads>(sum, warp_totals);
  if (threadIdx.x == 0) partial[blockIdx.x] = sum;
}

// loss[0] = (sum of partial[0 .. blocks)) / count, with one block of
// kLossThreads threads. The partials are combined in double: cheap here and it
// keeps the mean accurate for large element counts.
__global__ void __launch_bounds__(kLossThreads)
    mse_finalize_kernel(const float* partial, int blocks, float* loss, double inv_count) {
  __shared__ double warp_totals[kLossThreads / kWarpSize];
  double sum = 0.0;
  for (int i = threadIdx.x; i < blocks; i += kLossThreads) sum += partial[i];
  sum = block_sum<kLossThreads>(sum, warp_totals);
  if (threadIdx.x == 0) loss[0] = static_cast<float>(sum * inv_count);
}

}  // namespace v1
