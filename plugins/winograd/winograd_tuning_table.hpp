// Launch parameters per convolution shape: a measured table, a default for
// shapes not in it, and the backend's options that override it for sweeps.
//
// The two parameters that matter for this backend (README.md, "Method"):
//   transform_threads  threads per block of the tile-transform kernels;
//   images_per_chunk   images transformed and multiplied per pass (0: the
//                      whole batch, up to the workspace budget). Smaller chunks
//                      keep the transformed tiles in L2 between the transform
//                      and the GEMM; larger ones give cuBLAS longer GEMMs.
// Host code only (no CUDA): the unit test links it without a GPU.
#pragma once

#include <cae/backend.h>

#include <cstdint>

#include "backend_options.hpp"

namespace cae_winograd {

struct LayerShape {
  int64_t c, o, h, w;  // input channels, output channels, image height, width
};

struct LaunchParams {
  int transform_threads = 256;
  int64_t images_per_chunk = 0;
};

// The per-layer choice of method (README.md, "Dispatch"): a convolution with
// fewer than this many channels on either side (the model's conv1, 3 -> 256,
// and conv5, 256 -> 3) runs by the direct path (winograd_direct_passes.hpp)
// for its forward, data and weight gradients; all others by Winograd. Below
// it Winograd loses both ways: its 36 GEMMs have k or n < 16 (the transforms,
// not the products, take the time: 0.18-0.55x of v2 on the GPU), and with only
// 9 x 3 terms per output nothing averages out the transforms' amplified
// rounding (conv5's dx reached 1.14 of the FP32 bound in 200 seeds).
constexpr int64_t kDirectChannelThreshold = 16;

// True when `shape` runs by the direct path.
bool uses_direct_path(const LayerShape& shape);

// The measured entry for `shape`, else the defaults.
LaunchParams lookup_launch_params(const LayerShape& shape);

// What the options transform-warps and images-per-pass (ABI 1.4) set for
// every layer; the defaults leave the table's values
// (tests/gpu/tune-winograd.sh sweeps them).
struct LaunchOverride {
  int transform_warps = 0;       // threads per block / 32; 0: the table's
  int64_t images_per_pass = -1;  // -1: the table's; 0: the whole batch
};

extern const cae_plugin::OptionSpec kWinogradOptions[2];

// The override for the chosen values. Throws cae_plugin::Error
// (UNSUPPORTED, INVALID_ARGUMENT) naming a bad one.
LaunchOverride launch_override(const cae_option_value* values, int32_t count);

// `params` with the override's choices in place of the table's.
LaunchParams apply_override(LaunchParams params, const LaunchOverride& launch);

// The images of one pass: the table's (or override's) chunk, capped so that
// the pass's transformed tiles fit `budget_floats`; never below one image.
int64_t images_per_pass(const LaunchParams& params, int64_t batch, int64_t floats_per_image,
                        int64_t budget_floats);

}  // namespace cae_winograd
