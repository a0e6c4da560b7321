// mse_loss and the SVM kernel matrix: the ops that reduce. Deterministic: each
// sum has a fixed split into blocks, a fixed per-thread order and a fixed tree.
#include <algorithm>

#include "winograd_gemm.hpp"
#include "winograd_ops.hpp"

namespace cae_winograd {
namespace {

constexpr int kThreads = 256;

// Sums partial[threadIdx.x] over the block (blockDim.x == kThreads) into partial[0].
__device__ void block_tree_sum(double* partial) {
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
}

// Pass 1: partials[block] = sum of (pred - target)^2 over the block's stride
// pattern; also writes the gradient.
__global__ void mse_partial_kernel(const float* pred, const float* target, int64_t count,
                                   float* grad, float grad_scale, float* partials) {
  __shared__ double partial[kThreads];
  double sum = 0.0;
  for (int64_t i = blockIdx.x * int64_t(kThreads) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * kThreads) {
    const float diff = pred[i] - target[i];
    sum += double(diff) * double(diff);
    if (grad) grad[i] = grad_scale * diff;
  }
  partial[threadIdx.x] = sum;
  block_tree_sum(partial);
  if (threadIdx.x == 0) partials[blockIdx.x] = static_cast<float>(partial[0]);
}

// Pass 2: one block sums the partials in a fixed order and divides.
__global__ void mse_final_kernel(const float* partials, int blocks, double inverse_count,
                                 float* loss) {
  __shared__ double partial[kThreads];
  double sum = 0.0;
  for (int i = threadIdx.x; i < blocks; i += kThreads) sum += partials[i];
  partial[threadIdx.x] = sum;
  block_tree_sum(partial);
  if (threadIdx.x == 0) loss[0] = static_cast<float>(partial[0] * inverse_count);
}

// norms[r] = sum over k of rows[r][k]^2: one block per row.
__global__ void row_norms_kernel(const float* rows, int64_t count, int64_t length, float* norms) {
  __shared__ double partial[kThreads];
  for (int64_t r = blockIdx.x; r < count; r += gridDim.x) {
    double sum = 0.0;
    for (int64_t k = threadIdx.x; k < length; k += kThreads) {
      const double value = rows[r * length + k];
      sum += value * value;
    }
    partial[threadIdx.x] = sum;
    block_tree_sum(partial);
    if (threadIdx.x == 0) norms[r] = static_cast<float>(partial[0]);
    __syncthreads();
  }
}

// k[i][j] = exp(-gamma (|x_i|^2 + |y_j|^2 - 2 <x_i, y_j>)), the dot products
// already in k; rounding can make the distance slightly negative: clamp it.
__global__ void rbf_kernel(float* k, const float* x_norms, const float* y_norms, int64_t n,
                           int64_t m, float gamma) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < n * m;
       e += int64_t(gridDim.x) * blockDim.x) {
    const float distance = x_norms[e / m] + y_norms[e % m] - 2.0f * k[e];
    k[e] = expf(-gamma * fmaxf(distance, 0.0f));
  }
}

}  // namespace
}  // namespace cae_winograd

namespace cae_plugin {
namespace cuda {
namespace device_ops {

using namespace cae_winograd;  // winograd's kernels and GEMM

void mse_loss(Context& ctx, cae_tensor_s& pred_tensor, cae_tensor_s& target_tensor,
              cae_tensor_s& loss_tensor, cae_tensor_s* grad_tensor) {
  const float* pred = pred_tensor.data;
  const float* target = target_tensor.data;
  const int64_t count = pred_tensor.shape.count();
  float* loss = loss_tensor.data;
  float* grad = grad_tensor ? grad_tensor->data : nullptr;
  const int blocks =
      static_cast<int>(std::min<int64_t>(kReductionBlocks, (count + kThreads - 1) / kThreads));
  float* partials = ctx.reduction_partials.data();
  mse_partial_kernel<<<blocks, kThreads, 0, ctx.stream>>>(
      pred, target, count, grad, 2.0f / static_cast<float>(count), partials);
  CAE_CUDA_CHECK_LAUNCH("mse_partial_kernel");
  mse_final_kernel<<<1, kThreads, 0, ctx.stream>>>(partials, blocks, 1.0 / double(count), loss);
  CAE_CUDA_CHECK_LAUNCH("mse_final_kernel");
}


void kernel_matrix(Context& ctx, const float* x, const float* y, float* k, const KernelDims& dims,
                   int32_t kind, float gamma) {
  // K [n][m] = X [n][d] Y [m][d]^T; column-major: K^T (m x n) = Y^T... read as
  // Y (d x m, ld d) transposed times X (d x n, ld d).
  strided_batched_gemm(ctx, CUBLAS_OP_T, CUBLAS_OP_N, dims.m, dims.n, dims.d, 1.0f, {y, dims.d, 0},
                       {x, dims.d, 0}, 0.0f, k, dims.m, 0, 1);
  if (kind != CAE_KERNEL_RBF) return;
  float* norms = ctx.workspace.reserve(static_cast<size_t>(dims.n + dims.m));
  const unsigned norm_blocks = static_cast<unsigned>(std::min<int64_t>(dims.n, 65535));
  row_norms_kernel<<<norm_blocks, kThreads, 0, ctx.stream>>>(x, dims.n, dims.d, norms);
  CAE_CUDA_CHECK_LAUNCH("row_norms_kernel (x)");
  const unsigned y_blocks = static_cast<unsigned>(std::min<int64_t>(dims.m, 65535));
  row_norms_kernel<<<y_blocks, kThreads, 0, ctx.stream>>>(y, dims.m, dims.d, norms + dims.n);
  CAE_CUDA_CHECK_LAUNCH("row_norms_kernel (y)");
  rbf_kernel<<<cae_plugin::cuda::grid_for(dims.n * dims.m, kThreads), kThreads, 0, ctx.stream>>>(
      k, norms, norms + dims.n, dims.n, dims.m, gamma);
  CAE_CUDA_CHECK_LAUNCH("rbf_kernel");
}

}  // namespace device_ops
}  // namespace cuda
}  // namespace cae_plugin
