// conv2d forward and backward on the GPU: the steps of v2_conv_steps.cuh.
#include "v2_conv_steps.cuh"
#include "v2_device_executor.cuh"

namespace cae_v2 {

void conv2d_forward(Context& ctx, const cae_plugin::ConvDims& d, const float* x, const float* w,
                    const float* b, float* y, bool relu) {
  DeviceExecutor ex{ctx};
  conv_forward_steps(ex, d, x, w, b, y, relu);
}

void conv2d_backward(Context& ctx, const cae_plugin::ConvDims& d, const float* x, const float* w,
                     const float* dy, float* dx, float* dw, float* db) {
  DeviceExecutor ex{ctx};
  conv_backward_steps(ex, d, x, w, dy, dx, dw, db);
}

}  // namespace cae_v2
