#include "winograd_tuning_table.hpp"

#include <algorithm>

#include "plugin_support.hpp"

namespace cae_winograd {
namespace {

struct TableEntry {
  LayerShape shape;
  LaunchParams params;
};

// The autoencoder's five convolutions (C, O, H, W) -> {threads, images per
// pass}: starting values from one rule (README.md, "Method"), until
// tests/gpu/tune-winograd.sh's best rows replace them. The rule: a pass's transformed tiles (36 (C + O) tiles
// floats per image) stay within ~40 MB of the H200's 50 MB L2, so the GEMMs
// read what the input transform just wrote from L2 instead of HBM.
// conv1 and conv5 run by the direct path (uses_direct_path): there only the
// chunk counts (the weight gradient's images per pass; 0: the whole batch,
// one batched GEMM); its block size is fixed (kDirectThreads).
const TableEntry kTable[] = {
    {{3, 256, 32, 32}, {256, 0}},     // direct path
    {{256, 128, 16, 16}, {256, 32}},  // 0.9 MB per image
    {{128, 128, 8, 8}, {128, 0}},     // 0.15 MB per image: a whole batch of 256 fits
    {{128, 256, 16, 16}, {256, 32}},  // 0.9 MB per image
    {{256, 3, 32, 32}, {256, 0}},     // direct path
};

bool same(const LayerShape& a, const LayerShape& b) {
  return a.c == b.c && a.o == b.o && a.h == b.h && a.w == b.w;
}

}  // namespace

bool uses_direct_path(const LayerShape& shape) {
  return std::min(shape.c, shape.o) < kDirectChannelThreshold;
}

LaunchParams lookup_launch_params(const LayerShape& shape) {
  for (const TableEntry& e : kTable)
    if (same(e.shape, shape)) return e.params;
  return LaunchParams{};
}

const cae_plugin::OptionSpec kWinogradOptions[2] = {
    {CAE_OPTION_INT, "transform-warps", "0", nullptr, 0, 32,
     "threads per block of the tile-transform kernels, in warps of 32, for every layer "
     "(0: the measured table's)"},
    {CAE_OPTION_INT, "images-per-pass", "-1", nullptr, -1, 1 << 20,
     "images transformed and multiplied per pass, for every layer (-1: the measured table's; "
     "0: the whole batch, within the workspace budget)"}};

LaunchOverride launch_override(const cae_option_value* values, int32_t count) {
  const cae_plugin::OptionValues chosen =
      cae_plugin::resolve_options(kWinogradOptions, values, count);
  LaunchOverride launch;
  launch.transform_warps = static_cast<int>(chosen.integer("transform-warps"));
  launch.images_per_pass = chosen.integer("images-per-pass");
  return launch;
}

LaunchParams apply_override(LaunchParams params, const LaunchOverride& launch) {
  if (launch.transform_warps > 0) params.transform_threads = 32 * launch.transform_warps;
  if (launch.images_per_pass >= 0) params.images_per_chunk = launch.images_per_pass;
  return params;
}

int64_t images_per_pass(const LaunchParams& params, int64_t batch, int64_t floats_per_image,
                        int64_t budget_floats) {
  int64_t images = params.images_per_chunk > 0 ? std::min(params.images_per_chunk, batch) : batch;
  const int64_t fit = floats_per_image > 0 ? budget_floats / floats_per_image : batch;
  images = std::min(images, fit);
  return std::max<int64_t>(images, 1);
}

}  // namespace cae_winograd
