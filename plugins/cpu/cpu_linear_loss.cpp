// linear_loss (ABI 1.11): the linear classifier's loss and residuals on a
// group of rows, one block of CAE_LINEAR_LOSS_BLOCK_ROWS rows per thread at a
// time, its rows' terms added in row order, in double precision
// (plugins/common/linear_loss_math.hpp, the row arithmetic the CUDA runtime
// runs too).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "cpu_context.hpp"
#include "cpu_ops.hpp"
#include "cpu_parallel.hpp"
#include "linear_loss_math.hpp"
#include "op_shapes.hpp"

namespace cae_cpu {

cae_status linear_loss(cae_context ctx, cae_tensor scores, cae_tensor bias, cae_tensor targets,
                       int32_t kind, float scale, cae_tensor residuals, cae_tensor sums) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "linear_loss";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& S = tensor_arg(c, scores, op, "scores");
    const cae_tensor_s& B = tensor_arg(c, bias, op, "bias");
    const cae_tensor_s& T = tensor_arg(c, targets, op, "targets");
    const cae_tensor_s& R = tensor_arg(c, residuals, op, "residuals");
    const cae_tensor_s& U = tensor_arg(c, sums, op, "sums");
    const bool aliased =
        cae_plugin::linear_loss_outputs_alias(scores, bias, targets, residuals, sums);
    const cae_plugin::LinearLossDims d = cae_plugin::check_linear_loss(
        S.shape, B.shape, T.shape, kind, scale, R.shape, U.shape, aliased);
    const float* s = S.data();
    const float* b = B.data();
    const float* t = T.data();
    float* r = R.data();
    float* u = U.data();
    const int64_t k = d.classes;
    parallel_for(c.threads, d.blocks, [&](int64_t block) {
      const int64_t first = block * CAE_LINEAR_LOSS_BLOCK_ROWS;
      const int64_t last = std::min<int64_t>(d.rows, first + CAE_LINEAR_LOSS_BLOCK_ROWS);
      std::vector<double> residual_sums(static_cast<size_t>(k), 0.0);
      double loss = 0.0;
      for (int64_t i = first; i < last; ++i) {
        const float* row_scores = s + i * k;
        const cae_plugin::LinearLossRow row = cae_plugin::linear_loss_row(
            kind, row_scores, b, k, cae_plugin::linear_loss_class(t[i], k));
        loss += row.loss;
        for (int64_t j = 0; j < k; ++j) {
          const double value = cae_plugin::linear_loss_residual(
              kind, row, cae_plugin::linear_loss_score(row_scores, b, j), j, scale);
          r[j * d.rows + i] = static_cast<float>(value);
          residual_sums[static_cast<size_t>(j)] += value;
        }
      }
      float* out = u + block * (k + 1) * 2;
      for (int64_t j = 0; j < k; ++j) {
        cae_plugin::linear_loss_split(residual_sums[static_cast<size_t>(j)], out + j * 2);
      }
      cae_plugin::linear_loss_split(loss, out + k * 2);
    });
  });
}

}  // namespace cae_cpu
