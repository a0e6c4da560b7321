// v3's convolutions: every layer through im2col (or taps) and cuBLASLt TF32
// GEMMs (v3_conv.cu). The runtime's entry points call these two; a backend
// built on the runtime with convolutions of its own (v4) defines them instead.
#include "v3_ops.hpp"

namespace cae_v3 {

void conv2d_forward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                    cae_tensor_s& w, const float* b, float* y, bool relu) {
  tf32_conv2d_forward(ctx, d, x, w, b, y, relu);
}

void conv2d_backward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                     cae_tensor_s& w, const float* dy, float* dx, float* dw, float* db) {
  tf32_conv2d_backward(ctx, d, x, w, dy, dx, dw, db);
}

}  // namespace cae_v3
