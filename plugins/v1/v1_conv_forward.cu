// conv2d_forward: y = [ReLU](conv3x3(x, w) + b) in one kernel.
#include <climits>
#include <string>

#include "v1_conv_tile.hpp"
#include "v1_conv_tile_kernel.cuh"
#include "v1_launch.hpp"
#include "v1_ops.hpp"

namespace v1 {

namespace {

constexpr int kMaxGridZ = 65535;

// Output channels per block: 16 for real layers (each staged input value is
// reused 16 times); 4 when there are at most 4 (the 3-channel decoder output),
// where 16 would leave three quarters of the work idle.
constexpr int kWideGroup = 16;
constexpr int kNarrowGroup = 4;

template <int kGroup, bool kTransposed>
void launch_conv_tile(cae_context_s& ctx, ConvTileArgs args, int batch) {
  const int groups = (args.out_channels + kGroup - 1) / kGroup;
  const int images_per_launch = kMaxGridZ / groups > 0 ? kMaxGridZ / groups : 1;
  const dim3 block(kConvTile, kConvTile);
  for (int first = 0; first < batch; first += images_per_launch) {
    const int images = batch - first < images_per_launch ? batch - first : images_per_launch;
    args.batch_offset = first;
    const dim3 grid((args.width + kConvTile - 1) / kConvTile,
                    (args.height + kConvTile - 1) / kConvTile, images * groups);
    launch("launch of conv_tile_kernel", conv_tile_kernel<kGroup, kTransposed>, grid, block,
           ctx.stream, args);
  }
}

}  // namespace

void require_supported_conv(const char* op, const cae_plugin::ConvDims& d) {
  if (d.K != kConvKernel) {
    cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                     std::string(op) + ": the v1 backend implements 3x3 kernels only, got " +
                         std::to_string(d.K) + "x" + std::to_string(d.K));
  }
  const bool fits = d.N <= INT_MAX && d.C <= INT_MAX && d.O <= INT_MAX && d.H * d.W <= INT_MAX &&
                    (d.H + kConvTile - 1) / kConvTile <= kMaxGridZ &&
                    (d.O + kWideGroup - 1) / kWideGroup <= kMaxGridZ &&
                    (d.C + kWideGroup - 1) / kWideGroup <= kMaxGridZ;
  if (!fits) {
    cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                     std::string(op) +
                         ": dimensions too large for the v1 backend's 32-bit "
                         "indexing (N=" +
                         std::to_string(d.N) + ", C=" + std::to_string(d.C) +
                         ", O=" + std::to_string(d.O) + ", H=" + std::to_string(d.H) +
                         ", W=" + std::to_string(d.W) + ")");
  }
}

void run_conv_tile(cae_context_s& ctx, const ConvTileArgs& args, int batch, bool transposed) {
  const bool narrow = args.out_channels <= kNarrowGroup;
  if (transposed) {
    if (narrow) {
      launch_conv_tile<kNarrowGroup, true>(ctx, args, batch);
    } else {
      launch_conv_tile<kWideGroup, true>(ctx, args, batch);
    }
  } else {
    if (narrow) {
      launch_conv_tile<kNarrowGroup, false>(ctx, args, batch);
    } else {
      launch_conv_tile<kWideGroup, false>(ctx, args, batch);
    }
  }
}

void conv2d_forward(cae_context_s& ctx, const cae_plugin::ConvDims& d, const float* x,
                    const float* w, const float* b, float* y, bool fuse_relu) {
  ConvTileArgs args{};
  args.in = x;
  args.weights = w;
  args.bias = b;
  args.out = y;
  args.in_channels = static_cast<int>(d.C);
  args.out_channels = static_cast<int>(d.O);
  args.height = static_cast<int>(d.H);
  args.width = static_cast<int>(d.W);
  args.relu = fuse_relu ? 1 : 0;
  run_conv_tile(ctx, args, static_cast<int>(d.N), /*transposed=*/false);
}

}  // namespace v1
