// v3's convolutions: every layer through im2col (or taps) and cuBLASLt TF32
// GEMMs (v3_conv.cu). The runtime's entry points call these two
// (runtime_ops.hpp); v4 defines them with convolutions of its own.
#include "runtime_ops.hpp"
#include "v3_tf32_convolutions.hpp"

namespace cae_cuda {

void conv2d_forward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                    cae_tensor_s& w, const float* b, float* y, bool relu) {
  cae_v3::tf32_conv2d_forward(ctx, d, x, w, b, y, relu);
}

void conv2d_backward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                     cae_tensor_s& w, const float* dy, float* dx, float* dw, float* db) {
  cae_v3::tf32_conv2d_backward(ctx, d, x, w, dy, dx, dw, db);
}

}  // namespace cae_cuda
