// Host side of the tiled convolution (v1_conv_tile_kernel.cuh), shared by
// conv2d_forward and the dx part of conv2d_backward.
#pragma once

#include "v1_context.hpp"

namespace v1 {

struct ConvTileArgs;

// Runs the tiled convolution over `batch` images: picks the output-channel
// group size and splits the batch so gridDim.z stays within its limit.
// transposed: read args.weights as the forward tensor of the conv whose dx is
// being computed (see the kernel's comment).
void run_conv_tile(cae_context_s& ctx, const ConvTileArgs& args, int batch, bool transposed);

}  // namespace v1
