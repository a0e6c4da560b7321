// What a v3 or v4 context computes with. The settings of Tuning are chosen
// per context through the backends' declared options (v3_options.hpp; v4
// declares the precision pair, v3 keeps its defaults). The constants are
// fixed, the fastest measured (docs/PERF.md).
#pragma once

#include <cstddef>

namespace cae_v3 {

// im2col matrices of the forward pass kept for the backward pass, at most.
constexpr size_t kColumnCacheBytes = size_t(2048) << 20;

// Skinny weight gradients (conv1, conv5) are split along the pixels for
// about this many output tiles per multiprocessor.
constexpr int kSplitTilesPerSm = 4;

// v4's weight-gradient GEMMs split K (the pixels) into enough slices for
// about this many blocks per multiprocessor.
constexpr int kSplitKBlocksPerSm = 2;

struct Tuning {
  // v3's convolution GEMMs (all of v3's, and v4's 3-channel layers) in FP32
  // arithmetic on cuBLASLt instead of TF32; the TF32-only short-K kernel is
  // then not used.
  bool fp32_convolutions = false;
  // v4's GEMMs multiply each FP32 operand as this many BF16 terms (1..3),
  // stacked along K: 2: the activation or gradient side as hi + lo
  // (hi = bf16(v), lo = bf16(v - hi)), the other side hi; 3: also hi * lo of
  // the other side. Three terms carry about 16 mantissa bits instead of 8.
  int bf16_terms = 1;
  // Scratch areas filled with NaN before every use (Scratch in
  // v3_device_memory.hpp): a check, slower, that changes no correct result.
  bool poison_scratch = false;
};

}  // namespace cae_v3
