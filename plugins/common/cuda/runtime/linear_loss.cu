// linear_loss (ABI 1.11) on the device: one block of threads per block of
// CAE_LINEAR_LOSS_BLOCK_ROWS rows, a thread per row. Each thread passes over
// its row's scores once for the loss (and the softmax's maximum and sum),
// then class by class writes its residual into the transposed output (the
// threads' consecutive rows make each class's writes one coalesced run) and
// the block adds the class's residuals in a fixed order (block_total). The
// row arithmetic, in double precision, is plugins/common/linear_loss_math.hpp,
// which the cpu backend runs too.
#include <cstdint>

#include "block_reductions.cuh"
#include "linear_loss_math.hpp"
#include "runtime_launch.cuh"
#include "runtime_ops.hpp"

namespace cae_cuda {

namespace {

static_assert(kThreads == CAE_LINEAR_LOSS_BLOCK_ROWS,
              "a block of threads is a block of linear_loss's rows");

__global__ void __launch_bounds__(kThreads)
    linear_loss_kernel(const float* scores, const float* bias, const float* targets, int32_t kind,
                       double scale, int64_t rows, int64_t classes, float* residuals, float* sums) {
  __shared__ double warp_sums[kThreads / 32];
  begin_after_prior_kernels();
  const int64_t i = int64_t(blockIdx.x) * kThreads + threadIdx.x;
  const bool mine = i < rows;  // the last block's spare threads add zeros
  const float* row_scores = scores + (mine ? i : 0) * classes;
  cae_plugin::LinearLossRow row{0.0, 0.0, 1.0, 0};
  if (mine) {
    row = cae_plugin::linear_loss_row(kind, row_scores, bias, classes,
                                      cae_plugin::linear_loss_class(targets[i], classes));
  }
  float* out = sums + int64_t(blockIdx.x) * (classes + 1) * 2;
  for (int64_t c = 0; c < classes; ++c) {
    double value = 0.0;
    if (mine) {
      value = cae_plugin::linear_loss_residual(
          kind, row, cae_plugin::linear_loss_score(row_scores, bias, c), c, scale);
      residuals[c * rows + i] = static_cast<float>(value);
    }
    const double total = block_total(value, warp_sums);
    if (threadIdx.x == 0) cae_plugin::linear_loss_split(total, out + c * 2);
  }
  const double loss = block_total(mine ? row.loss : 0.0, warp_sums);
  if (threadIdx.x == 0) cae_plugin::linear_loss_split(loss, out + classes * 2);
}

}  // namespace

bool linear_loss(Context& ctx, const float* scores, const float* bias, const float* targets,
                 int32_t kind, float scale, float* residuals, float* sums,
                 const cae_plugin::LinearLossDims& dims) {
  if (!ctx.tuning.linear_loss) return false;
  launch(ctx, "linear_loss_kernel", linear_loss_kernel, dim3(static_cast<unsigned>(dims.blocks)),
         kThreads, 0, scores, bias, targets, kind, static_cast<double>(scale), dims.rows,
         dims.classes, residuals, sums);
  return true;
}

}  // namespace cae_cuda
