// What v4's fused edge layers cover and how their kernels tile it. Host code
// without CUDA: the kernels (v4_pooled_conv.cu, v4_upsampled_conv.cu), the
// graph matcher (v4_fusion_plan.cpp) and its host test all use these, so the
// shapes matched and the buffers sized always agree with the kernels' grids.
#pragma once

#include <cstddef>
#include <cstdint>

#include "op_shapes.hpp"

namespace cae_v4 {

// -- the fused first layer and the thin-input forward (v4_pooled_conv.hpp)

namespace pooled_tiling {
constexpr int kChannelsPerBlock = 64;
constexpr int kLanes = 4;           // pixels in flight per block
constexpr int kPixelsPerTile = 64;  // pixels whose patches a block stages at once
constexpr int kMaxTaps = 36;        // K*K*C: the sums a thread keeps in registers
// The weight gradient's blocks each sum 1..8 tiles: enough blocks to fill the
// GPU at small batches, few partial sums at large ones. From the shape only,
// so the order of the sums, hence the result, is the same on every GPU.
constexpr int64_t kMaxTilesPerWeightBlock = 8;
constexpr int64_t kWeightBlocksWanted = 256;
}  // namespace pooled_tiling

// The (K, C) the thin-input kernels are instantiated for: K 1 or 3 with
// 1 <= C <= 4, K 5 with C = 1 (K*K*C <= 36 sums in registers).
bool thin_shape_covered(int64_t K, int64_t C);
// Whether the kernels cover a convolution of these dims.
bool thin_conv_supported(const cae_plugin::ConvDims& d);
// The same followed by a 2x2 max-pool (H and W even).
bool pooled_conv_supported(const cae_plugin::ConvDims& d);
int64_t pooled_tiles(const cae_plugin::ConvDims& d);
int64_t pooled_tiles_per_weight_block(const cae_plugin::ConvDims& d);
int64_t pooled_weight_blocks(const cae_plugin::ConvDims& d);
// Bytes of the pool's choices (one per pooled output element) and of the
// weight gradient's partial sums.
size_t pooled_conv_choice_bytes(const cae_plugin::ConvDims& d);
size_t pooled_conv_partial_bytes(const cae_plugin::ConvDims& d);

// -- which convolutions v4's BF16 GEMMs run (v4_conv.cu)

// Narrow layers, whose channels do not come in whole 16-byte BF16 chunks (an
// image's, a reconstruction's: the seed model's conv1 and conv5), take the
// TF32 convolutions v3 runs (cuBLASLt, and their own short-K kernel for
// conv5's data gradient), which read FP32 operands: no BF16 copy of x or dy.
// Two other ways measured slower per op: direct FP32 kernels, 1.2-2.8x (27
// multiply-adds per wide element are CUDA-core bound), and v4's own GEMMs
// over 8-channel zero-padded copies, 1.6-3.2x (with K = 72, two K tiles, each
// tile waits for its loads and then for its stores, with nothing to overlap
// them). The forward of a thin input (conv1) is the exception, on v4's own
// thin-input kernel all the same: the graphs' fused first layer must make the
// op path's max-pool choices (v4_conv.cu's conv2d_forward, v4_pooled_conv.hpp).
bool narrow_conv(const cae_plugin::ConvDims& d);
// Whether the convolution reads x's BF16 copy, in its forward pass (not the
// thin-input kernel's) or its backward pass; dy's copy is read wherever the
// backward pass reads x's.
bool gemm_reads_bf16_x(const cae_plugin::ConvDims& d, bool forward);

// -- the fused last layer (v4_upsampled_conv.hpp)

namespace upsampled_tiling {
constexpr int kTaps = 9;                // 3x3
constexpr int kMaxChannels = 256;       // of t: one thread each in the backward pass
constexpr int kWarpsPerBlock = 8;       // forward: one small pixel per warp at a time
constexpr int kSmallPerTile = 32;       // backward: small pixels staged at once
constexpr int64_t kBlocksWanted = 256;  // backward: blocks to fill the GPU
constexpr int64_t kMaxTilesPerBlock = 16;
}  // namespace upsampled_tiling

// Whether the kernels cover this convolution (d: its dims at the upsampled
// size) over an upsampling: K = 3, 1 <= O <= 4, 1 <= C <= 256, H and W even.
bool upsampled_conv_supported(const cae_plugin::ConvDims& d);
int64_t upsampled_tiles_per_block(const cae_plugin::ConvDims& d);
int64_t upsampled_backward_blocks(const cae_plugin::ConvDims& d);
// Bytes of the backward pass's partial sums.
size_t upsampled_conv_partial_bytes(const cae_plugin::ConvDims& d);

}  // namespace cae_v4
