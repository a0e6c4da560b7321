// SVM kernel matrix K [n,m] from row-major X [n,d] and Y [m,d]: one thread
// per element of K, a plain loop over the d features. A warp holds
// consecutive columns j: X's row is a broadcast, Y's rows are 32 strided
// streams that L1 catches only partly (the tiled backends do better).
#include "naive_kernels.cuh"
#include "naive_ops.hpp"

namespace naive {
namespace {

// x may equal y: both are only read.
__global__ void kernel_matrix_kernel(const float* x, const float* y, float* k, int64_t n, int64_t m,
                                     int64_t d, bool rbf, float gamma) {
  const int64_t total = n * m;
  for (int64_t i = global_thread_index(); i < total; i += grid_thread_count()) {
    const float* x_row = x + (i / m) * d;
    const float* y_row = y + (i % m) * d;
    float sum = 0.0f;
    if (rbf) {
      for (int64_t t = 0; t < d; ++t) {
        const float diff = x_row[t] - y_row[t];
        sum += diff * diff;
      }
      k[i] = expf(-gamma * sum);
    } else {
      for (int64_t t = 0; t < d; ++t) sum += x_row[t] * y_row[t];
      k[i] = sum;
    }
  }
}

}  // namespace

void kernel_matrix(cae_context_s& ctx, const cae_tensor_s& x, const cae_tensor_s& y,
                   cae_tensor_s& k, const cae_plugin::KernelDims& dims, cae_kernel_kind kind,
                   float gamma) {
  kernel_matrix_kernel<<<blocks_for(dims.n * dims.m), kThreadsPerBlock, 0, ctx.stream>>>(
      x.data, y.data, k.data, dims.n, dims.m, dims.d, kind == CAE_KERNEL_RBF, gamma);
  CAE_CUDA_CHECK_LAUNCH("kernel_matrix_kernel");
}

}  // namespace naive
