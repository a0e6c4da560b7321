// The kernel-matrix op as steps on an executor (see v2_conv_steps.cuh):
// one SGEMM K = X Y^T, then, for RBF, the squared row norms (once per call,
// once in all when x is y) and an in-place epilogue.
#pragma once

#include "v2_gemm.hpp"
#include "v2_kernel_matrix_kernels.cuh"
#include "v2_workspace.hpp"

namespace cae_v2 {

// x [n][d], y [m][d], k [n][m], all row-major.
template <class Exec>
void kernel_matrix_steps(Exec& ex, const float* x, const float* y, float* k, int64_t n, int64_t m,
                         int64_t d, bool rbf, float gamma) {
  const bool same_matrix = x == y;
  ex.gemm(RowMajorGemm{false, true, n, m, d, x, d, y, d, k, m}, "kernel_matrix: K = X Y^T");
  if (!rbf) return;
  ScratchPlan plan;
  const size_t x_norms_at = plan.take(n);
  const size_t y_norms_at = same_matrix ? x_norms_at : plan.take(m);
  float* base = ex.scratch(plan.total_floats());
  ex.row_sums_of_squares(x, n, d, base + x_norms_at);
  if (!same_matrix) ex.row_sums_of_squares(y, m, d, base + y_norms_at);
  ex.run(RbfFromDots{k, base + x_norms_at, base + y_norms_at, n, m, gamma, same_matrix},
         "kernel_matrix rbf epilogue");
}

}  // namespace cae_v2
