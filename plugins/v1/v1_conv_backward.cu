// conv2d_backward: dx by the tiled convolution with transposed, flipped
// weights; dw and db by block reductions over the batch, split over the batch
// when that is needed to fill the GPU and then summed in a fixed order.
#include "v1_conv_tile.hpp"
#include "v1_conv_tile_kernel.cuh"
#include "v1_conv_weight_grad_kernels.cuh"
#include "v1_launch.hpp"
#include "v1_ops.hpp"

namespace v1 {

namespace {

// Aim for a few resident blocks per multiprocessor in the reductions.
constexpr int kTargetBlocksPerMultiprocessor = 4;
constexpr unsigned kFinalizeThreads = 256;

int ceil_div(int64_t a, int64_t b) { return static_cast<int>((a + b - 1) / b); }

// Splits `batch` images into the fewest equal-sized parts (the last may be
// shorter, none empty) that give at least `target_blocks` blocks in total when
// each part has `blocks_per_part` blocks. Returns {parts, images per part}.
struct BatchSplit {
  int parts;
  int images_per_part;
};
BatchSplit split_batch(int batch, int64_t blocks_per_part, int64_t target_blocks) {
  int64_t parts = (target_blocks + blocks_per_part - 1) / blocks_per_part;
  if (parts < 1) parts = 1;
  if (parts > batch) parts = batch;
  const int images = ceil_div(batch, parts);
  return {ceil_div(batch, images), images};
}

void input_gradient(cae_context_s& ctx, const cae_plugin::ConvDims& d, const float* w,
                    const float* dy, float* dx) {
  ConvTileArgs args{};
  args.in = dy;
  args.weights = w;
  args.bias = nullptr;
  args.out = dx;
  args.in_channels = static_cast<int>(d.O);  // summed over: the forward outputs
  args.out_channels = static_cast<int>(d.C);
  args.height = static_cast<int>(d.H);
  args.width = static_cast<int>(d.W);
  args.relu = 0;
  run_conv_tile(ctx, args, static_cast<int>(d.N), /*transposed=*/true);
}

void weight_gradient(cae_context_s& ctx, const cae_plugin::ConvDims& d, const float* x,
                     const float* dy, float* dw) {
  const int squares_c = ceil_div(d.C, kWeightGradSquare);
  const int squares_o = ceil_div(d.O, kWeightGradSquare);
  const BatchSplit split =
      split_batch(static_cast<int>(d.N), static_cast<int64_t>(squares_c) * squares_o,
                  static_cast<int64_t>(kTargetBlocksPerMultiprocessor) * ctx.multiprocessor_count);
  const int64_t count = d.O * d.C * kConvTaps;
  float* partial = split.parts > 1
                       ? ctx.weight_grad_partials.get(static_cast<size_t>(split.parts) * count,
                                                      ctx.stream, ctx.memory)
                       : dw;

  WeightGradArgs args{};
  args.x = x;
  args.dy = dy;
  args.partial = partial;
  args.batch = static_cast<int>(d.N);
  args.in_channels = static_cast<int>(d.C);
  args.out_channels = static_cast<int>(d.O);
  args.height = static_cast<int>(d.H);
  args.width = static_cast<int>(d.W);
  args.images_per_split = split.images_per_part;
  launch("launch of conv_weight_grad_kernel", conv_weight_grad_kernel,
         dim3(squares_c, squares_o, split.parts), dim3(kWeightGradSquare, kWeightGradSquare),
         ctx.stream, args);
  if (split.parts > 1) {
    launch("launch of sum_splits_kernel", sum_splits_kernel,
           dim3(cae_plugin::cuda::grid_for(count, kFinalizeThreads)), dim3(kFinalizeThreads),
           ctx.stream, static_cast<const float*>(partial), dw, count, split.parts);
  }
}

void bias_gradient(cae_context_s& ctx, const cae_plugin::ConvDims& d, const float* dy, float* db) {
  const BatchSplit split =
      split_batch(static_cast<int>(d.N), d.O,
                  static_cast<int64_t>(kTargetBlocksPerMultiprocessor) * ctx.multiprocessor_count);
  float* partial = split.parts > 1
                       ? ctx.bias_grad_partials.get(static_cast<size_t>(split.parts) * d.O,
                                                    ctx.stream, ctx.memory)
                       : db;
  launch("launch of bias_grad_partial_kernel", bias_grad_partial_kernel,
         dim3(static_cast<unsigned>(d.O), split.parts), dim3(kBiasGradThreads), ctx.stream, dy,
         partial, static_cast<int>(d.N), static_cast<int>(d.O), static_cast<int>(d.H * d.W),
         split.images_per_part);
  if (split.parts > 1) {
    launch("launch of bias_grad_finalize_kernel", bias_grad_finalize_kernel,
           dim3(ceil_div(d.O, kFinalizeThreads)), dim3(kFinalizeThreads), ctx.stream,
           static_cast<const float*>(partial), db, static_cast<int>(d.O), split.parts);
  }
}

}  // namespace

void conv2d_backward(cae_context_s& ctx, const cae_plugin::ConvDims& d, const float* x,
                     const float* w, const float* dy, float* dx, float* dw, float* db) {
  if (dx != nullptr) input_gradient(ctx, d, w, dy, dx);
  weight_gradient(ctx, d, x, dy, dw);
  bias_gradient(ctx, d, dy, db);
}

}  // namespace v1
