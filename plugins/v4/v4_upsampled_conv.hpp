// A decoder's last layer with the upsampling before it, for v4's graphs: a
// 3x3 convolution with few outputs (the image's channels) over a 2x
// nearest-neighbour upsampling of t [N,C,h,w].
//
// Op by op, the upsampling writes its full-size output (N x C x 2h x 2w in
// FP32: 1 MiB per 32x32 image at C = 256), the convolution reads it, and the
// backward pass writes a data gradient of that size for the upsampling's
// backward to sum back to h x w. Fused, both directions read t at its own
// size: an upsampled pixel (Y, X) is t's (Y/2, X/2), so each tap of an
// output pixel reads one of the 3x3 small pixels around it.
//   forward:  y = conv(upsample(t), w) + b: the taps that land on one small
//             pixel summed into combined weights per output phase, one BF16
//             GEMM of 4 * O columns over t (upsampled_gemm_forward); with
//             more than one BF16 term, one warp per 4 small pixels writing
//             the 2x2 output pixels above each, its lanes splitting the
//             channels, in FP32;
//   backward: dt = upsample_backward(conv_dx(dy)) (times t > 0 when the
//             ReLU's backward on t follows, merged in), dw and db, one
//             thread per channel of t: per small pixel, each weight meets
//             the sum of the 2x2 output gradients whose taps reach the
//             pixel through it, made once for all channels.
// The backward in FP32 on the CUDA cores. No ReLU or pool follows this
// layer's output, so no choice depends on its rounding.
#pragma once

#include <cuda_bf16.h>

#include <cstddef>
#include <cstdint>

#include "op_shapes.hpp"
#include "runtime_context.hpp"
#include "v4_fused_shapes.hpp"

namespace cae_v4 {

// The shapes covered (upsampled_conv_supported) and the size of the partial
// sums: v4_fused_shapes.hpp.

// t [N,C,H/2,W/2], w [O,C,3,3], b [O] -> y [N,O,H,W] = conv(upsample(t), w) + b.
void upsampled_conv_forward(cae_cuda::Context& ctx, const cae_plugin::ConvDims& d, const float* t,
                            const float* w, const float* b, float* y);

// The forward on the tensor cores (defined in v4_conv.cu, beside the GEMMs it
// launches): one BF16 GEMM over t's BF16 copy with the combined weights below,
// its columns the 2x2 output pixels above each small pixel and their channels
// (PixelShuffleStore). False, with nothing queued, where it does not apply:
// more than one BF16 term (option bf16-terms), fp32-conv, channels not in
// 8s, or more than 4 outputs; the FP32 kernel runs instead.
bool upsampled_gemm_forward(cae_cuda::Context& ctx, const cae_plugin::ConvDims& d, const float* t,
                            const float* w, const float* b, float* y);

// The combined weights of that GEMM, BF16 [rows][ld]: row n = o * 4 + u * 2 +
// v (output o at phase (u, v)), column tap * C + c with tap = ty * 3 + tx over
// the 3x3 small pixels around (offsets ty - 1, tx - 1): the sum of w's taps
// that land there from that phase. Rows past 4 * O and columns past 9 * C are
// zero.
void upsampled_combined_weights(cae_cuda::Context& ctx, const cae_plugin::ConvDims& d,
                                const float* w, int64_t rows, int64_t ld, __nv_bfloat16* out);

// From dy [N,O,H,W]: dt [N,C,H/2,W/2] (zero where relu_t is not NULL and
// t <= 0: the ReLU's backward of t), unless NULL dt's BF16 copy (the layer
// before reads it in its backward GEMMs, v4_bf16_copies.hpp), and dw, db
// (overwritten).
void upsampled_conv_backward(cae_cuda::Context& ctx, const cae_plugin::ConvDims& d, const float* t,
                             const float* w, const float* dy, bool relu_t, float* dt,
                             __nv_bfloat16* dt_bf16, float* partials, float* dw, float* db);

}  // namespace cae_v4
