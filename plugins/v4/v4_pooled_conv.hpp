// An encoder's first layer as one kernel each way, for v4's graphs: a
// convolution with few input channels (the image's) whose ReLU output feeds
// nothing but a 2x2 max-pool.
//
// Op by op, that layer writes its full-size output (N x O x H x W in FP32:
// 1 MiB per 32x32 image at O = 256, the largest tensor of the seed's step),
// the pool reads it back, and the backward pass writes a full-size gradient
// for the convolution to read again. Fused:
//   forward:  pooled = maxpool2x2(relu(conv(x, w) + b)) and the pool's
//             choices, the full-size output never leaving registers;
//   backward: dw and db straight from the pooled gradient and the choices.
//             Only the chosen element of a window whose max is positive has a
//             gradient, so the weight gradient is a sum over pooled pixels: a
//             quarter of the products of the dense one, and the full-size
//             gradient is never written.
// By default the products run on the CUDA cores in FP32 (the kernels of
// v4_pooled_conv.cu). With edge-kernels=tensor-cores they run on the tensor
// cores, each FP32 operand as two TF32 terms (v4_thin_conv_tf32.hpp,
// v4_pooled_backward_tf32.hpp): about as exact, and slower on an H100 (their
// blocks wait on staging with few warps resident), kept as the variant to
// compare. The op path's forward of such a layer is thin_conv_forward, value
// for value the same arithmetic as the fused forward on either variant.
#pragma once

#include <cuda_bf16.h>

#include <cstddef>
#include <cstdint>

#include "op_shapes.hpp"
#include "runtime_context.hpp"
#include "v4_fused_shapes.hpp"

namespace cae_v4 {

// The shapes covered (thin_conv_supported, pooled_conv_supported) and the
// sizes of the buffers below: v4_fused_shapes.hpp.

// The op path's forward of such a convolution, y = [ReLU](conv(x, w) + b)
// [N,O,H,W]: each value computed exactly as pooled_conv_forward computes it
// (same products, same order), so that a graph with the layer fused makes
// the op path's max-pool choices and ReLU zeros, bit for bit.
void thin_conv_forward(cae_cuda::Context& ctx, const cae_plugin::ConvDims& d, const float* x,
                       const float* w, const float* b, float* y, bool relu);

// x [N,C,H,W], w [O,C,K,K], b [O] (the runtime's storage order) ->
// pooled [N,O,H/2,W/2] and, unless NULL, the choices as the runtime's
// max-pool records them (resample_kernels.cuh: first max of the window,
// bit 2 set when it is > 0) and pooled's BF16 copy, the operand of the next
// layer's GEMMs (v4_bf16_copies.hpp).
void pooled_conv_forward(cae_cuda::Context& ctx, const cae_plugin::ConvDims& d, const float* x,
                         const float* w, const float* b, float* pooled, uint8_t* choice,
                         __nv_bfloat16* pooled_bf16);

// dw [O,C,K,K] and db [O] (overwritten, summed over the batch) of the same
// layer from the pooled output's gradient and the forward's choices.
void pooled_conv_backward(cae_cuda::Context& ctx, const cae_plugin::ConvDims& d, const float* x,
                          const uint8_t* choice, const float* dpooled, float* partials, float* dw,
                          float* db);

}  // namespace cae_v4
