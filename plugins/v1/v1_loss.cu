// mse_loss launcher: two deterministic passes, the loss stays on the device.
#include "v1_launch.hpp"
#include "v1_loss_kernels.cuh"
#include "v1_ops.hpp"

namespace v1 {

void mse_loss(cae_context_s& ctx, const float* pred, const float* target, float* loss, float* grad,
              int64_t count) {
  // Enough blocks to stream the tensors at full bandwidth; a function of
  // `count` only (never of the device) so the summation order is fixed.
  const int64_t wanted = (count + kLossThreads * 4 - 1) / (kLossThreads * 4);
  const int blocks = static_cast<int>(wanted < 1                ? 1
                                      : wanted > kLossMaxBlocks ? kLossMaxBlocks
                                                                : wanted);
  float* partial = ctx.loss_partials.get(kLossMaxBlocks, ctx.stream, ctx.memory);
  const float grad_scale = static_cast<float>(2.0 / static_cast<double>(count));
  launch("launch of mse_partial_kernel", mse_partial_kernel, dim3(blocks), dim3(kLossThreads),
         ctx.stream, pred, target, grad, partial, count, grad_scale);
  launch("launch of mse_finalize_kernel", mse_finalize_kernel, dim3(1), dim3(kLossThreads),
         ctx.stream, static_cast<const float*>(partial), blocks, loss,
         1.0 / static_cast<double>(count));
}

}  // namespace v1
