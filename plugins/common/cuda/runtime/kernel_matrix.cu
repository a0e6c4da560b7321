// The SVM kernel matrix: K = X Y^T as one FP32 GEMM (exact FP32 by default:
// RBF distances are differences of large dot products; TF32 with the option
// kernel-products=tf32, Tuning::tf32_kernel_products), or, when one
// side has at most 16 rows (the linear classifier's products), on the CUDA
// cores at the long side's bandwidth (short_products.cu); then for RBF
// the squared row norms and an in-place epilogue
//   K[i][j] = exp(-gamma * max(|x_i|^2 + |y_j|^2 - 2 <x_i, y_j>, 0)).
// kernel_rbf_from_linear (ABI 1.10) runs that epilogue alone on the product
// a LINEAR call left: a search over several gammas multiplies once.
#include <string>

#include "device_memory.hpp"
#include "runtime_launch.cuh"
#include "runtime_ops.hpp"

namespace cae_cuda {

namespace {

__global__ void __launch_bounds__(kThreads)
    rbf_kernel(const float* products, float* k, const float* x_norms, const float* y_norms,
               int64_t rows, int64_t cols, float gamma, bool same_matrix) {
  begin_after_prior_kernels();
  const int64_t count = rows * cols, step = int64_t(gridDim.x) * kThreads;
  for (int64_t e = int64_t(blockIdx.x) * kThreads + threadIdx.x; e < count; e += step) {
    const int64_t i = e / cols, j = e - i * cols;
    float distance = x_norms[i] + y_norms[j] - 2.0f * products[e];
    distance = distance > 0.0f ? distance : 0.0f;  // rounding can make it slightly negative
    if (same_matrix && i == j) distance = 0.0f;
    k[e] = expf(-gamma * distance);
  }
}

// K from the products in `products` (K itself in place): the rows' squared
// norms, then the element-wise pass. The one RBF epilogue of kernel_matrix
// and kernel_rbf_from_linear, so that the two agree bit for bit.
void rbf_from_products(Context& ctx, const float* x, const float* y, const float* products,
                       float* k, const cae_plugin::KernelDims& dims, float gamma) {
  const bool same_matrix = x == y;
  ScratchLayout layout;
  const size_t x_at = layout.add(dims.n);
  const size_t y_at = same_matrix ? x_at : layout.add(dims.m);
  float* base = ctx.scratch.get(layout.total());
  row_squares(ctx, x, dims.n, dims.d, base + x_at);
  if (!same_matrix) row_squares(ctx, y, dims.m, dims.d, base + y_at);
  launch(ctx, "rbf_kernel", rbf_kernel, cae_plugin::cuda::grid_for(dims.n * dims.m, kThreads),
         kThreads, 0, products, k, base + x_at, base + y_at, dims.n, dims.m, gamma, same_matrix);
}

}  // namespace

void kernel_matrix(Context& ctx, const float* x, const float* y, float* k,
                   const cae_plugin::KernelDims& dims, int32_t kind, float gamma) {
  if (short_products(ctx, x, y, k, dims)) {
    if (kind == CAE_KERNEL_RBF) rbf_from_products(ctx, x, y, k, k, dims, gamma);
    return;
  }
  // Row-major K[n][m] = X[n][d] Y[m][d]^T is the column-major m x n product Y X^T.
  GemmCall g;
  g.exact_fp32 = !ctx.tuning.tf32_kernel_products;
  g.transpose_a = true;
  g.m = dims.m;
  g.n = dims.n;
  g.k = dims.d;
  g.a = y;
  g.lda = dims.d;
  g.b = x;
  g.ldb = dims.d;
  g.d = k;
  g.ldd = dims.m;
  if (!ctx.gemm.run(g, "kernel_matrix: K = X Y^T")) {
    cae_plugin::fail(CAE_STATUS_DEVICE_ERROR, "kernel_matrix: cuBLASLt offers no FP32 algorithm");
  }
  if (kind == CAE_KERNEL_RBF) rbf_from_products(ctx, x, y, k, k, dims, gamma);
}

void kernel_rbf_from_linear(Context& ctx, const float* x, const float* y, const float* linear,
                            float* k, const cae_plugin::KernelDims& dims, float gamma) {
  rbf_from_products(ctx, x, y, linear, k, dims, gamma);
}

}  // namespace cae_cuda
