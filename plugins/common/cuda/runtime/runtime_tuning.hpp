// What a context of the runtime computes with. The settings of Tuning are
// chosen per context through the backends' declared options
// (plugins/v3/v3_options.hpp, plugins/v4/v4_options.hpp: v4 declares the
// precision pair, v3 keeps its defaults). The constant is fixed, the fastest
// measured (docs/PERF.md).
#pragma once

#include <cstddef>

namespace cae_cuda {

// Buffers a convolution derives from x in the forward pass and keeps for the
// backward pass (v3: im2col matrices, v4: BF16 copies), at most.
constexpr size_t kColumnCacheBytes = size_t(2048) << 20;

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
  // device_memory.hpp): a check, slower, that changes no correct result.
  bool poison_scratch = false;
  // v4's graphs (ABI 1.5) are captured as CUDA graphs after their first run
  // and replayed (plugins/v4/v4_graph.cpp); off, they run node by node.
  bool graph_capture = false;
  // v4's step graphs with gradient exchanges (ABI 1.6): run, the exchanges
  // overlapping the backward pass (plugins/v4/v4_graph_exchanges.hpp); off,
  // such graphs are declined and the host exchanges after the backward pass.
  bool graph_exchanges = false;
  // v4's captured graphs run matched node sequences as fused kernels
  // (plugins/v4/v4_graph_fusion.hpp); off, every node as its op member.
  bool graph_fusion = false;
  // v4's thin edge kernels (the first layer's forward and weight gradient,
  // the fused last layer's backward) on the tensor cores with two TF32 terms
  // per operand instead of the CUDA cores' FP32: the same products, a
  // variant kept beside the faster one to compare (plugins/v4/README.md).
  bool tf32_edge_kernels = false;
  // kernel_matrix's products with a side of at most 16 rows on the CUDA
  // cores (short_products.cu) instead of cuBLASLt.
  bool short_products = true;
  // ...their columns cut into parts, each part's blocks of their own, where
  // one block per 32 rows would leave the GPU a small grid; off
  // (short-products=whole-rows), every block sums whole rows.
  bool split_short_products = true;
  // linear_loss (ABI 1.11) on the device (linear_loss.cu); off, the member
  // answers UNSUPPORTED and the host computes the loss from the scores.
  bool linear_loss = true;
  // kernel_matrix's cuBLASLt products (kernel_matrix.cu) with TF32 operands
  // instead of exact FP32.
  bool tf32_kernel_products = false;
  // svm_dual_solve's kernel takes each thread's rows this many at a time: 1
  // (svm_dual_solve.cu) or 4 (svm_dual_batched.cu), the same steps.
  int smo_rows_at_once = 4;
};

}  // namespace cae_cuda
