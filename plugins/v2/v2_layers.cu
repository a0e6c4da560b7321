// ReLU, 2x2 max-pool and 2x upsample on the GPU: one body each.
#include "v2_elementwise_kernels.cuh"
#include "v2_launch.cuh"
#include "v2_ops.hpp"
#include "v2_resample_kernels.cuh"

namespace cae_v2 {

namespace {
// Every (channel, image) pair is one plane, in whatever order both tensors share.
int64_t planes_of(const cae_plugin::Shape& s) { return s[0] * s[1]; }
}  // namespace
}  // namespace cae_v2

namespace cae_plugin {
namespace cuda {
namespace device_ops {

using namespace cae_v2;  // v2's kernels and launches

void relu_forward(Context& ctx, const float* x, float* y, int64_t count) {
  launch_for_each(ReluForward{x, y, count}, ctx.stream, "relu_forward");
}

void relu_backward(Context& ctx, const float* y, const float* dy, float* dx, int64_t count) {
  launch_for_each(ReluBackward{y, dy, dx, count}, ctx.stream, "relu_backward");
}

void maxpool2x2_forward(Context& ctx, const Shape& x_shape, const float* x, float* y) {
  const PoolGeometry g{planes_of(x_shape), x_shape[2], x_shape[3]};
  launch_for_each(MaxPoolForward{g, x, y}, ctx.stream, "maxpool2x2_forward");
}

void maxpool2x2_backward(Context& ctx, const Shape& x_shape, const float* x,
                         const float* dy, float* dx) {
  const PoolGeometry g{planes_of(x_shape), x_shape[2], x_shape[3]};
  launch_for_each(MaxPoolBackward{g, x, dy, dx}, ctx.stream, "maxpool2x2_backward");
}

void upsample2x_forward(Context& ctx, const Shape& x_shape, const float* x, float* y) {
  const UpsampleGeometry g{planes_of(x_shape), x_shape[2], x_shape[3]};
  launch_for_each(UpsampleForward{g, x, y}, ctx.stream, "upsample2x_forward");
}

void upsample2x_backward(Context& ctx, const Shape& dx_shape, const float* dy,
                         float* dx) {
  const UpsampleGeometry g{planes_of(dx_shape), dx_shape[2], dx_shape[3]};
  launch_for_each(UpsampleBackward{g, dy, dx}, ctx.stream, "upsample2x_backward");
}

}  // namespace device_ops
}  // namespace cuda
}  // namespace cae_plugin
