// Convolutions on the shared CUDA runtime (tf32_conv.cu): im2col (or taps) and
// cuBLASLt GEMMs on TF32 tensor cores. v3 runs every layer through them
// (plugins/v3/v3_convolutions.cpp); v4 runs its 3-channel layers through them
// and adds its per-tap outputs with tap_sum (plugins/v4/README.md, "What v4
// takes from the TF32 convolutions"). Their messages name v3, the backend
// that runs them on every layer.
#pragma once

#include "op_shapes.hpp"
#include "runtime_context.hpp"

namespace cae_tf32_conv {

using cae_cuda::Context;

// kSplitTilesPerSm: skinny weight gradients (conv1, conv5) are split along the
// pixels for about this many output tiles per multiprocessor.
constexpr int kSplitTilesPerSm = 4;

void tf32_conv2d_forward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                         cae_tensor_s& w, const float* b, float* y, bool relu);
void tf32_conv2d_backward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                          cae_tensor_s& w, const float* dy, float* dx, float* dw, float* db);
// The per-tap scheme's second step:
// y[p][o] = bias[o] + sum over taps t of tap_outputs[p shifted by t][t*O + o]
// (taps inside the image only), ReLU'd when relu; tap_outputs is
// [pixels][taps*O].
void tap_sum(Context& ctx, const cae_plugin::ConvDims& d, const float* tap_outputs,
             const float* bias, bool relu, float* y);

}  // namespace cae_tf32_conv
