#include "v3_tuning.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace cae_v3 {

namespace {

// Returns the variable's value, or `fallback` when it is unset or not a number.
long long env_number(const char* name, long long fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  return end && *end == '\0' ? value : fallback;
}

// The variable's value held to [low, high]; `fallback` when unset or not a number.
int env_clamped(const char* name, int fallback, int low, int high) {
  return static_cast<int>(std::clamp<long long>(env_number(name, fallback), low, high));
}

}  // namespace

Tuning Tuning::from_environment() {
  Tuning t;
  t.verbose = env_number("CAE_V3_VERBOSE", 0) != 0;
  const long long megabytes = env_number("CAE_V3_COLUMN_CACHE_MB", 2048);
  t.column_cache_bytes = megabytes > 0 ? static_cast<size_t>(megabytes) << 20 : 0;
  t.fuse = env_number("CAE_V3_FUSE", 1) != 0;
  t.pool_choices = env_number("CAE_V3_POOL_CHOICES", 1) != 0;
  t.split_tiles_per_sm = env_clamped("CAE_V3_SPLIT_TILES", 4, 0, 64);
  t.split_k_blocks_per_sm = env_clamped("CAE_V3_SPLIT_K_BLOCKS", 2, 1, 8);
  t.pageable_download = env_number("CAE_V3_PAGEABLE_DOWNLOAD", 0) != 0;
  t.side_stream = env_number("CAE_V3_SIDE_STREAM", 1) != 0;
  t.programmatic_launch = env_number("CAE_V3_PDL", 1) != 0;
  t.short_k_products = env_number("CAE_V3_SHORT_K", 1) != 0;
  t.fp32_convolutions = env_number("CAE_V3_FP32_CONV", 0) != 0;
  t.bf16_terms = env_clamped("CAE_V3_BF16_TERMS", 1, 1, 3);
  return t;
}

}  // namespace cae_v3
