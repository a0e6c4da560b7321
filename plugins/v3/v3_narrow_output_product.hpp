// Products with a wide inner dimension and a narrow output (at most 32
// columns), on TF32 tensor cores through v3's own kernel instead of cuBLASLt:
//
//   D[p][i] = sum over c of X[p][c] * W[i][c]
//
// conv5's forward in the taps scheme: taps[P][28] = x[P][256] Wt[28][256]^T
// (9 taps x 3 outputs, padded), before the tap sum. Reading x once (67 MB at
// batch 64) is what costs; cuBLASLt's kernels read it at about 1.5 TB/s at
// batch 64 (docs/PERF.md, eighth session). Here a warp loads 16 pixels' rows
// as float4s straight into its A fragments (the channels of the K steps are
// permuted alike in A and B, so no transposition is needed), with 16 float4
// loads in flight per lane, and takes W's fragments from shared memory,
// where the block lays them out once in the order the lanes read them.
#pragma once

#include "v3_context.hpp"
#include "v3_gemm.hpp"

namespace cae_v3 {

// True when the kernel exists for this device (code for compute capability
// 8.0+) and the call has its form: in GemmCall's column-major terms
// D[m x n] = A^T B with A = W ([m][lda] rows, transpose_a), B = X ([n][ldb]
// rows), m <= 32, k a multiple of 32 (at most 512), ldb a multiple of 4 and
// X 16-byte aligned, one batch, no epilogue, TF32 allowed.
bool narrow_output_product_fits(const GemmCall& call);

// Queues the product on ctx's stream (call must fit).
void narrow_output_product(Context& ctx, const GemmCall& call);

}  // namespace cae_v3
