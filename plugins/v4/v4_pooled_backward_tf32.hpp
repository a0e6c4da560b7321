// The fused first layer's weight gradient on the tensor cores: the blocks'
// partial sums of dw and db, as pooled_conv_backward's FP32 kernel makes
// them, from four masked TF32 products (one per window element), each FP32
// operand as two TF32 terms (v4_pooled_backward_tf32.cu).
// pooled_conv_backward calls it unless the context runs its 3-channel layers
// in FP32 (the fp32-conv option); the FP32 kernel stays beside it as the
// variant to compare.
#pragma once

#include <cstdint>

#include "op_shapes.hpp"
#include "runtime_context.hpp"

namespace cae_v4 {

void pooled_conv_weight_partials_tf32(cae_cuda::Context& ctx, const cae_plugin::ConvDims& d,
                                      const float* x, const uint8_t* choice, const float* dpooled,
                                      float* partials);

}  // namespace cae_v4
