#include "winograd_tuning_table.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

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

int64_t parse_positive(const std::string& key, const std::string& text, bool zero_allowed) {
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  const bool ok =
      !text.empty() && end && *end == '\0' && (value > 0 || (zero_allowed && value == 0));
  if (!ok) {
    cae_plugin::fail(CAE_STATUS_INVALID_ARGUMENT,
                     "CAE_WINOGRAD_TUNING: " + key + "=" + text + " is not a " +
                         (zero_allowed ? "non-negative" : "positive") + " integer");
  }
  return value;
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

LaunchParams apply_override(LaunchParams params, const std::string& spec) {
  std::stringstream parts(spec);
  std::string part;
  while (std::getline(parts, part, ',')) {
    if (part.empty()) continue;
    const auto eq = part.find('=');
    const std::string key = part.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : part.substr(eq + 1);
    if (key == "threads") {
      const int64_t t = parse_positive(key, value, false);
      // Whole warps, within CUDA's block limit.
      cae_plugin::require(t % 32 == 0 && t <= 1024, "CAE_WINOGRAD_TUNING: threads=" + value +
                                                        " must be a multiple of 32 up to 1024");
      params.transform_threads = static_cast<int>(t);
    } else if (key == "chunk") {
      params.images_per_chunk = parse_positive(key, value, true);
    } else {
      cae_plugin::fail(CAE_STATUS_INVALID_ARGUMENT, "CAE_WINOGRAD_TUNING: unknown part \"" + part +
                                                        "\" (expected threads=T,chunk=N)");
    }
  }
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
