// The fused first layer's weight gradient on the tensor cores: the blocks'
// partial sums of dw and db, as pooled_conv_backward's FP32 kernel makes
// them, from four masked TF32 products (one per window element), each FP32
// operand as two TF32 terms (v4_pooled_backward_tf32.cu).
// pooled_conv_backward calls it when the context's edge-kernels option is
// tensor-cores: a variant kept beside the FP32 kernel, the default, which is
// faster on an H100 (plugins/v4/README.md).
#pragma once

#include <cstdint>

#include "op_shapes.hpp"
#include "runtime_context.hpp"

namespace cae_v4 {

void pooled_conv_weight_partials_tf32(cae_cuda::Context& ctx, const cae_plugin::ConvDims& d,
                                      const float* x, const uint8_t* choice, const float* dpooled,
                                      float* partials);

}  // namespace cae_v4
