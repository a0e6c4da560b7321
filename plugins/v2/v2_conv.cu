// conv2d forward and backward on the GPU: the steps of v2_conv_steps.cuh.
#include "v2_conv_steps.cuh"
#include "v2_device_executor.cuh"

namespace cae_plugin {
namespace cuda {
namespace device_ops {

void conv2d_forward(Context& ctx, const ConvDims& d, const cae_tensor_s& x, const cae_tensor_s& w,
                    const float* b, float* y, bool relu) {
  cae_v2::DeviceExecutor ex{ctx};
  cae_v2::conv_forward_steps(ex, d, x.data, w.data, b, y, relu);
}

void conv2d_backward(Context& ctx, const ConvDims& d, const cae_tensor_s& x,
                     const cae_tensor_s& w, const float* dy, float* dx, float* dw, float* db) {
  cae_v2::DeviceExecutor ex{ctx};
  cae_v2::conv_backward_steps(ex, d, x.data, w.data, dy, dx, dw, db);
}

}  // namespace device_ops
}  // namespace cuda
}  // namespace cae_plugin
