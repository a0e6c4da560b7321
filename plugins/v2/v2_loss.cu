// Mean squared error: value (kept on the device) and gradient, in one pass
// over the elements plus a one-block pass over the per-block partial sums.
// Squares are accumulated in double and added in a fixed order, so the loss
// is accurate and bit-reproducible.
#include <algorithm>

#include "v2_ops.hpp"
#include "v2_reductions.cuh"
#include "v2_vector_access.cuh"

namespace cae_v2 {

namespace {

constexpr int kLossThreads = 256;
// Partials are doubles in the context's reduction buffer (2048 floats).
constexpr int64_t kMaxLossBlocks = kReductionPartialFloats / 2;

// The grid depends on the element count only (fixed summation order).
int64_t loss_blocks(int64_t quads) {
  constexpr int64_t kQuadsPerBlock = kLossThreads * 4;
  return std::max<int64_t>(1,
                           std::min(kMaxLossBlocks, (quads + kQuadsPerBlock - 1) / kQuadsPerBlock));
}

__global__ void __launch_bounds__(kLossThreads)
    mse_partial_sums(const float* pred, const float* target, float* grad, int64_t count,
                     float grad_scale, double* partials) {
  const int64_t quads = (count + 3) / 4;
  double acc = 0.0;
  for (int64_t q = int64_t(blockIdx.x) * kLossThreads + threadIdx.x; q < quads;
       q += int64_t(gridDim.x) * kLossThreads) {
    const int64_t e = q * 4;
    if (e + 4 <= count) {
      const float4 p = load4(pred + e), t = load4(target + e);
      const float4 d = make_float4(p.x - t.x, p.y - t.y, p.z - t.z, p.w - t.w);
      acc += (double(d.x) * d.x + double(d.y) * d.y) + (double(d.z) * d.z + double(d.w) * d.w);
      if (grad) {
        store4(grad + e,
               make_float4(d.x * grad_scale, d.y * grad_scale, d.z * grad_scale, d.w * grad_scale));
      }
    } else {
      for (int64_t i = e; i < count; ++i) {
        const float d = pred[i] - target[i];
        acc += double(d) * d;
        if (grad) grad[i] = d * grad_scale;
      }
    }
  }
  const double total = block_sum<kLossThreads>(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

__global__ void __launch_bounds__(kLossThreads)
    mse_finish(const double* partials, int64_t blocks, int64_t count, float* loss) {
  double acc = 0.0;
  for (int64_t b = threadIdx.x; b < blocks; b += kLossThreads) acc += partials[b];
  const double total = block_sum<kLossThreads>(acc);
  if (threadIdx.x == 0) loss[0] = static_cast<float>(total / double(count));
}

}  // namespace

void mse_loss(Context& ctx, const float* pred, const float* target, int64_t count, float* loss,
              float* grad) {
  const int64_t blocks = loss_blocks((count + 3) / 4);
  double* partials = reinterpret_cast<double*>(ctx.reduction_partials.data());
  const float grad_scale = static_cast<float>(2.0 / double(count));
  mse_partial_sums<<<static_cast<unsigned>(blocks), kLossThreads, 0, ctx.stream>>>(
      pred, target, grad, count, grad_scale, partials);
  CAE_CUDA_CHECK_LAUNCH("mse_partial_sums");
  mse_finish<<<1, kLossThreads, 0, ctx.stream>>>(partials, blocks, count, loss);
  CAE_CUDA_CHECK_LAUNCH("mse_finish");
}

}  // namespace cae_v2
