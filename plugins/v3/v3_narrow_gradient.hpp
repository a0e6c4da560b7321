// Weight-gradient products of the 3-channel layers, on TF32 tensor cores
// through v3's own kernel instead of cuBLASLt: per chunk b of pixels,
//
//   D_b[c][i] = sum over pixels p of chunk b of Wide[p][c] * Narrow[p][i]
//
// with a wide operand of whole 64-channel groups (conv1's dy, conv5's x: 256
// channels) and a narrow one of at most 32 columns (the im2col or gathered
// rows of 27 taps x 1..3 channels, 28 with padding). Reading the wide operand
// once is what costs (67 MB at batch 64); cuBLASLt's batched split-K kernels
// read it at 2-2.5 TB/s. Here each warp reads whole 128-byte row segments of
// the wide operand as float4s straight into its mma fragments (the 4 channels
// of a float4 go to 4 different fragments, so no transposition is needed),
// and each chunk is one block: the chunks' partial sums are added afterwards
// in a fixed order, as before (deterministic).
#pragma once

#include "v3_context.hpp"
#include "v3_gemm.hpp"

namespace cae_v3 {

// True when the kernel exists for this device (code for compute capability
// 8.0+) and the call has its form: in GemmCall's column-major terms
// D[m x n] = A B^T per batch, A = [k][lda] rows, B = [k][ldb] rows
// (transpose_b only), one of m and n a multiple of 64 (at most 256, or a
// multiple of 256) with its rows' stride a multiple of 4 and 16-byte aligned
// data, the other at most 32, no epilogue, TF32 allowed.
bool narrow_gradient_fits(const GemmCall& call);

// Queues the product on ctx's stream (call must fit).
void narrow_gradient(Context& ctx, const GemmCall& call);

}  // namespace cae_v3
