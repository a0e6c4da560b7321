// kernel_matrix launcher: row norms (RBF only), then the tiled product.
#include <climits>
#include <string>

#include "v1_kernel_matrix_kernels.cuh"
#include "v1_launch.hpp"
#include "v1_ops.hpp"

namespace v1 {

void kernel_matrix(cae_context_s& ctx, const cae_plugin::KernelDims& d, const float* x,
                   const float* y, float* k, int32_t kind, float gamma) {
  const int64_t max_rows = 65535LL * kKernelTile;  // gridDim.y limit
  if (d.n > max_rows || d.m > INT_MAX || d.d > INT_MAX) {
    cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                     "kernel_matrix: dimensions too large for the v1 backend (n=" +
                         std::to_string(d.n) + ", m=" + std::to_string(d.m) +
                         ", d=" + std::to_string(d.d) + "); split X into smaller row blocks");
  }
  KernelMatrixArgs args{};
  args.x = x;
  args.y = y;
  args.k = k;
  args.n = static_cast<int>(d.n);
  args.m = static_cast<int>(d.m);
  args.d = static_cast<int>(d.d);
  args.rbf = kind == CAE_KERNEL_RBF ? 1 : 0;
  args.gamma = gamma;
  if (args.rbf) {
    float* norms = ctx.row_norms.get(static_cast<size_t>(d.n + d.m), ctx.stream, ctx.memory);
    args.x_norms = norms;
    args.y_norms = norms + d.n;
    launch("launch of row_norms_kernel", row_norms_kernel,
           dim3(static_cast<unsigned>((d.n + kRowNormRowsPerBlock - 1) / kRowNormRowsPerBlock)),
           dim3(kRowNormThreads), ctx.stream, x, args.n, args.d, norms);
    launch("launch of row_norms_kernel", row_norms_kernel,
           dim3(static_cast<unsigned>((d.m + kRowNormRowsPerBlock - 1) / kRowNormRowsPerBlock)),
           dim3(kRowNormThreads), ctx.stream, y, args.m, args.d, norms + d.n);
  }
  const dim3 grid(static_cast<unsigned>((d.m + kKernelTile - 1) / kKernelTile),
                  static_cast<unsigned>((d.n + kKernelTile - 1) / kKernelTile));
  launch("launch of kernel_matrix_kernel", kernel_matrix_kernel, grid,
         dim3(kKernelTileThreads, kKernelTileThreads), ctx.stream, args);
}

}  // namespace v1
