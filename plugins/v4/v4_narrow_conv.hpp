// Direct FP32 convolutions for the layers with at most four channels on one
// side (the model's conv1, 3 -> 256, and conv5, 256 -> 3), which the
// tensor-core GEMMs cannot serve well: a GEMM whose K or N is 27 wastes most
// of every tile, and v3's TF32 path for them moved 1.5 TB/s at batch 64
// (docs/PERF.md, eighth session), well under HBM's rate. These layers are
// bound by the wide side's tensor, read or written once here:
//   - "widen": out[p][j] = bias[j] + sum over taps t and narrow channels i of
//     wt[j][t][i] * in[p + sign * shift(t)][i]. conv1 forward (sign +1) and
//     conv5's data gradient (sign -1, the flipped taps of w) are this;
//   - the weight gradient of either layer, acc[j][t][i] = sum over pixels p
//     of wide[p][j] * narrow[p + sign * shift(t)][i], each block summing its
//     own rows and a second pass adding the blocks in a fixed order.
// FP32 throughout (more precise than v4's declared BF16). 3x3 kernels only.
#pragma once

#include "op_shapes.hpp"
#include "v3_context.hpp"

namespace cae_v4 {

// Whether the direct kernels serve this layer: a 3x3 kernel and rows of at
// most 512 pixels; forward: at most four input channels; backward: at most
// four channels on one side and 256 on the other, and the input's gradient
// only when the narrow side is the output (conv5: the model never asks for
// conv1's input gradient). Other layers take v3's TF32 path.
bool narrow_direct_forward_fits(const cae_plugin::ConvDims& d);
bool narrow_direct_backward_fits(const cae_plugin::ConvDims& d, bool wants_dx);

void narrow_conv2d_forward(cae_v3::Context& ctx, const cae_plugin::ConvDims& d, const float* x,
                           const float* w, const float* b, float* y, bool relu);
void narrow_conv2d_backward(cae_v3::Context& ctx, const cae_plugin::ConvDims& d, const float* x,
                            const float* w, const float* dy, float* dx, float* dw, float* db);

}  // namespace cae_v4
