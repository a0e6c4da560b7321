// The fused last layer's backward pass on the tensor cores: dt and the
// block's partial sums of dw and db, as upsampled_conv_backward's FP32 kernel
// makes them, from two TF32 products per tile of small pixels, each FP32
// operand as two TF32 terms (v4_upsampled_backward_tf32.cu).
// upsampled_conv_backward calls it when the context's edge-kernels option is
// tensor-cores: a variant kept beside the FP32 kernel, the default, which is
// faster on an H100 (plugins/v4/README.md).
#pragma once

#include <cuda_bf16.h>

#include "op_shapes.hpp"
#include "runtime_context.hpp"

namespace cae_v4 {

void upsampled_conv_backward_tf32(cae_cuda::Context& ctx, const cae_plugin::ConvDims& d,
                                  const float* t, const float* w, const float* dy, bool relu_t,
                                  float* dt, __nv_bfloat16* dt_bf16, float* partials);

}  // namespace cae_v4
