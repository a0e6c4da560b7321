// Switches read once per context from the environment, for measuring
// variants on a GPU without rebuilding. The defaults are the fast path; every
// variant computes the same results except CAE_V3_SHORT_K and
// CAE_V3_SPLIT_K_BLOCKS, which move them within the declared precision, and
// the two precision switches CAE_V3_FP32_CONV and CAE_V3_BF16_TERMS, which make
// them more exact (for measuring what operand rounding costs in training).
//   CAE_V3_VERBOSE=1          print each new GEMM shape and the algorithm chosen (stderr)
//   CAE_V3_COLUMN_CACHE_MB=N  keep im2col matrices for the backward pass (default 2048; 0: off)
//   CAE_V3_FUSE=0             no deferred fusion of relu_backward into the preceding
//                             max-pool / upsample backward, no batched Adam steps
//   CAE_V3_POOL_CHOICES=0     max-pool backward re-derives its choices from x
//   CAE_V3_SPLIT_TILES=N      skinny weight gradients (conv1, conv5) are split along the
//                             pixels for about N output tiles per SM (default 4; 0: no split)
//   CAE_V3_SPLIT_K_BLOCKS=N   v4's weight-gradient GEMMs split K (the pixels) into enough
//                             slices for about N blocks per SM (default 2, at most 8);
//                             another split adds the partial sums in another grouping, so
//                             results move within BF16's tolerance
//   CAE_V3_PAGEABLE_DOWNLOAD=1  download into pageable memory with one DMA (the driver's
//                             own staging) instead of v3's pinned double buffer with
//                             host copies on several threads. Faster into a hot buffer,
//                             slower into feature rows spread over 2 GB
//   CAE_V3_SIDE_STREAM=0      v4's convolution backward runs its data-gradient GEMM on
//                             the context's stream after the weight gradient's inputs,
//                             not beside the weight gradient on a second stream
//   CAE_V3_PDL=0              kernels wait for the previous kernel on the stream to end
//                             before they are scheduled, instead of being scheduled
//                             during its last wave (programmatic dependent launch,
//                             compute capability 9.0 and later; programmatic_launch.cuh)
//   CAE_V3_SHORT_K=0          products with K <= 32 and a wide output (conv1's forward,
//                             conv5's data gradient) run on cuBLASLt instead of v3's own
//                             TF32 kernel (v3_short_k_product.hpp)
//   CAE_V3_FP32_CONV=1        v3's convolution GEMMs (all of v3's, and v4's 3-channel
//                             layers) in FP32 arithmetic on cuBLASLt instead of TF32;
//                             the short-K kernel, TF32 only, is not used
//   CAE_V3_BF16_TERMS=N       v4's GEMMs multiply each FP32 operand as N BF16 terms
//                             (default 1; at most 3), stacked along K, so one GEMM of
//                             N times the K adds them: 2: the activation or gradient
//                             side as hi + lo (hi = bf16(v), lo = bf16(v - hi)), the
//                             other side hi; 3: also hi * lo of the other side. Three
//                             terms carry about 16 mantissa bits instead of 8
#pragma once

#include <cstddef>

namespace cae_v3 {

struct Tuning {
  bool verbose = false;
  size_t column_cache_bytes = size_t(2048) << 20;
  bool fuse = true;
  bool pool_choices = true;
  int split_tiles_per_sm = 4;
  int split_k_blocks_per_sm = 2;
  bool pageable_download = false;
  bool side_stream = true;
  bool programmatic_launch = true;
  bool short_k_products = true;
  bool fp32_convolutions = false;
  int bf16_terms = 1;

  static Tuning from_environment();
};

}  // namespace cae_v3
