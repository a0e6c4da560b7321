// Products with a short inner dimension (K <= 32) and a wide output, on TF32
// tensor cores through a kernel of our own instead of cuBLASLt:
//
//   D[p][n] = sum over k < K of A[p][k] * B[n][k]   (+ bias[n], ReLU)
//
// They are two of the 3-channel layers' GEMMs: conv1's forward (im2col rows
// of 9 taps x 3 channels, plus a column of ones -> 256 outputs) and conv5's
// data gradient (9 taps x 3 gathered dy values -> 256 channels). The output,
// P x 256 FP32, is what costs: cuBLASLt's kernels for K = 28 wrote it at
// about 1.5 TB/s at batch 64. This kernel
// keeps all of B in registers, stages A tiles through shared memory one tile
// ahead of the tensor cores (cp.async), and runs as a persistent grid, so each
// block's loads for its next tile overlap the stores of its current one.
#pragma once

#include "lt_gemm.hpp"
#include "runtime_context.hpp"

namespace cae_tf32_conv {

// Built on the shared runtime (plugins/common/cuda/runtime).
using namespace cae_cuda;

// True when the kernel exists for this device (code for compute capability
// 8.0 or later: TF32 mma) and the call has the kernel's form. In GemmCall's
// column-major terms that is D[m x n] = op(A) B with transpose_a, where
// call.a holds the B above (m rows of k) and call.b the A above (n rows of
// k): k <= 32, k and call.b's row stride multiples of 4, m a multiple of 32
// (at most 256, or a multiple of 256), one batch, no bias gradient, TF32
// allowed.
bool short_k_product_fits(const GemmCall& call);

// Queues the product on ctx's stream (call must fit).
void short_k_product(Context& ctx, const GemmCall& call);

}  // namespace cae_tf32_conv
