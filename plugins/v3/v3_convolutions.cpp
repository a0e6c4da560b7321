// v3's convolutions: every layer through im2col (or taps) and cuBLASLt TF32
// GEMMs (plugins/common/cuda/tf32_conv). The runtime's entry points call
// these two (runtime_ops.hpp); v4 defines them with convolutions of its own.
#include "runtime_ops.hpp"
#include "tf32_convolutions.hpp"

namespace cae_cuda {

void conv2d_forward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                    cae_tensor_s& w, const float* b, float* y, bool relu) {
  cae_tf32_conv::tf32_conv2d_forward(ctx, d, x, w, b, y, relu);
}

void conv2d_backward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                     cae_tensor_s& w, const cae_tensor_s& dy, float* dx, float* dw, float* db) {
  cae_tf32_conv::tf32_conv2d_backward(ctx, d, x, w, dy.data, dx, dw, db);
}

}  // namespace cae_cuda
