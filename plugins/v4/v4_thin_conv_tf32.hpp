// The thin-input convolutions (v4_pooled_conv.hpp's forward passes) on the
// tensor cores: each FP32 operand as two TF32 terms, three products per 8
// taps (v4_thin_conv_tf32.cu). The same contracts as thin_conv_forward and
// pooled_conv_forward, which call these when the context's edge-kernels
// option is tensor-cores: a variant kept beside the FP32 kernels, the
// default, which are faster on an H100 (plugins/v4/README.md).
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

#include "op_shapes.hpp"
#include "runtime_context.hpp"

namespace cae_v4 {

void thin_conv_forward_tf32(cae_cuda::Context& ctx, const cae_plugin::ConvDims& d, const float* x,
                            const float* w, const float* b, float* y, bool relu);

void pooled_conv_forward_tf32(cae_cuda::Context& ctx, const cae_plugin::ConvDims& d, const float* x,
                              const float* w, const float* b, float* pooled, uint8_t* choice,
                              __nv_bfloat16* pooled_bf16);

}  // namespace cae_v4
