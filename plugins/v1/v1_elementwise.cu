// Launchers of the memory-bound layer ops (ReLU, max-pool, upsample).
#include "v1_elementwise_kernels.cuh"
#include "v1_launch.hpp"
#include "v1_ops.hpp"

namespace v1 {

namespace {

dim3 grid_for(int64_t count) {
  return dim3(cae_plugin::cuda::grid_for(count, kElementwiseThreads));
}

}  // namespace

void relu_forward(cae_context_s& ctx, const float* x, float* y, int64_t count) {
  launch("launch of relu_forward_kernel", relu_forward_kernel, grid_for((count + 3) / 4),
         dim3(kElementwiseThreads), ctx.stream, x, y, count);
}

void relu_backward(cae_context_s& ctx, const float* y, const float* dy, float* dx, int64_t count) {
  launch("launch of relu_backward_kernel", relu_backward_kernel, grid_for((count + 3) / 4),
         dim3(kElementwiseThreads), ctx.stream, y, dy, dx, count);
}

void maxpool2x2_forward(cae_context_s& ctx, const cae_plugin::Shape& big, const float* x,
                        float* y) {
  const int64_t windows = big.count() / 4;
  launch("launch of maxpool2x2_forward_kernel", maxpool2x2_forward_kernel, grid_for(windows),
         dim3(kElementwiseThreads), ctx.stream, x, y, windows, big[3]);
}

void maxpool2x2_backward(cae_context_s& ctx, const cae_plugin::Shape& big, const float* x,
                         const float* dy, float* dx) {
  const int64_t windows = big.count() / 4;
  launch("launch of maxpool2x2_backward_kernel", maxpool2x2_backward_kernel, grid_for(windows),
         dim3(kElementwiseThreads), ctx.stream, x, dy, dx, windows, big[3]);
}

void upsample2x_forward(cae_context_s& ctx, const cae_plugin::Shape& small, const float* x,
                        float* y) {
  const int64_t count = small.count();
  launch("launch of upsample2x_forward_kernel", upsample2x_forward_kernel, grid_for(count),
         dim3(kElementwiseThreads), ctx.stream, x, y, count, small[3]);
}

void upsample2x_backward(cae_context_s& ctx, const cae_plugin::Shape& small, const float* dy,
                         float* dx) {
  const int64_t count = small.count();
  launch("launch of upsample2x_backward_kernel", upsample2x_backward_kernel, grid_for(count),
         dim3(kElementwiseThreads), ctx.stream, dy, dx, count, small[3]);
}

}  // namespace v1
