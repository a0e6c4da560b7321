// Runs the steps of v2_conv_steps.cuh / v2_kernel_matrix_steps.cuh on the
// GPU: bodies as kernels, products through cuBLAS, all on the context's one
// stream, scratch from the context's workspace.
#pragma once

#include "v2_context.hpp"
#include "v2_gemm.hpp"
#include "v2_launch.cuh"
#include "v2_ops.hpp"

namespace cae_v2 {

struct DeviceExecutor {
  Context& ctx;

  float* scratch(size_t floats) { return ctx.workspace.reserve(floats); }
  template <class Body>
  void run(const Body& body, const char* name) {
    launch_for_each(body, ctx.stream, name);
  }
  void gemm(const RowMajorGemm& g, const char* what) { run_gemm(ctx.blas.get(), g, what); }
  void row_sums(const float* in, int64_t rows, int64_t cols, float* out) {
    cae_v2::row_sums(ctx, in, rows, cols, RowTerm::value, out);
  }
  void row_sums_of_squares(const float* in, int64_t rows, int64_t cols, float* out) {
    cae_v2::row_sums(ctx, in, rows, cols, RowTerm::square, out);
  }
};

}  // namespace cae_v2
