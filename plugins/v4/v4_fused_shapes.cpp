#include "v4_fused_shapes.hpp"

#include <algorithm>

namespace cae_v4 {

bool narrow_conv(const cae_plugin::ConvDims& d) { return d.C % 8 != 0 || d.O % 8 != 0; }

bool gemm_reads_bf16_x(const cae_plugin::ConvDims& d, bool forward) {
  if (narrow_conv(d)) return false;
  return !forward || !thin_conv_supported(d);
}

bool thin_shape_covered(int64_t K, int64_t C) {
  return ((K == 1 || K == 3) && C >= 1 && C <= 4) || (K == 5 && C == 1);
}

bool thin_conv_supported(const cae_plugin::ConvDims& d) {
  using namespace pooled_tiling;
  // Grid limits: pixel tiles in x (2^31 - 1), channel blocks in y (65535);
  // an image's offsets in 32 bits.
  return thin_shape_covered(d.K, d.C) && d.K * d.K * d.C <= kMaxTaps && d.N >= 1 && d.O >= 1 &&
         d.O <= 65535 * int64_t(kChannelsPerBlock) &&
         d.N * d.H * d.W / kPixelsPerTile < (int64_t(1) << 31) - 1 &&
         d.H * d.W * d.C < (int64_t(1) << 31);
}

int64_t pooled_tiles(const cae_plugin::ConvDims& d) {
  using namespace pooled_tiling;
  return (d.N * (d.H / 2) * (d.W / 2) + kPixelsPerTile - 1) / kPixelsPerTile;
}

int64_t pooled_tiles_per_weight_block(const cae_plugin::ConvDims& d) {
  using namespace pooled_tiling;
  return std::clamp<int64_t>(pooled_tiles(d) / kWeightBlocksWanted, 1, kMaxTilesPerWeightBlock);
}

int64_t pooled_weight_blocks(const cae_plugin::ConvDims& d) {
  const int64_t per_block = pooled_tiles_per_weight_block(d);
  return (pooled_tiles(d) + per_block - 1) / per_block;
}

bool pooled_conv_supported(const cae_plugin::ConvDims& d) {
  const bool even = d.H >= 2 && d.W >= 2 && d.H % 2 == 0 && d.W % 2 == 0;
  // The weight sums' block count in 32 bits.
  return thin_conv_supported(d) && even && pooled_weight_blocks(d) < (int64_t(1) << 31);
}

size_t pooled_conv_choice_bytes(const cae_plugin::ConvDims& d) {
  return size_t(d.N * (d.H / 2) * (d.W / 2) * d.O);
}

size_t pooled_conv_partial_bytes(const cae_plugin::ConvDims& d) {
  return size_t(pooled_weight_blocks(d)) * size_t(d.K * d.K * d.C + 1) * size_t(d.O) *
         sizeof(float);
}

namespace {

int64_t small_tiles(const cae_plugin::ConvDims& d) {
  using namespace upsampled_tiling;
  return (d.N * (d.H / 2) * (d.W / 2) + kSmallPerTile - 1) / kSmallPerTile;
}

}  // namespace

int64_t upsampled_tiles_per_block(const cae_plugin::ConvDims& d) {
  using namespace upsampled_tiling;
  return std::clamp<int64_t>(small_tiles(d) / kBlocksWanted, 1, kMaxTilesPerBlock);
}

int64_t upsampled_backward_blocks(const cae_plugin::ConvDims& d) {
  const int64_t per_block = upsampled_tiles_per_block(d);
  return (small_tiles(d) + per_block - 1) / per_block;
}

bool upsampled_conv_supported(const cae_plugin::ConvDims& d) {
  using namespace upsampled_tiling;
  const bool even = d.H >= 2 && d.W >= 2 && d.H % 2 == 0 && d.W % 2 == 0;
  return d.K == 3 && d.O >= 1 && d.O <= 4 && d.C >= 1 && d.C <= kMaxChannels && even && d.N >= 1 &&
         d.N * d.H * d.W * std::max(d.C, d.O) < (int64_t(1) << 40) &&
         upsampled_backward_blocks(d) < (int64_t(1) << 31);
}

size_t upsampled_conv_partial_bytes(const cae_plugin::ConvDims& d) {
  using namespace upsampled_tiling;
  return size_t(upsampled_backward_blocks(d)) * size_t(d.O * kTaps * d.C + d.O) * sizeof(float);
}

}  // namespace cae_v4
