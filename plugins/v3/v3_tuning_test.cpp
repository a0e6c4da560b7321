// Host-only checks of how v3's switches are read from the environment: each
// value is clamped to its range, and anything that is not a whole number
// leaves the default (a typo must not switch a fast path off).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "v3_tuning.hpp"

#include <doctest/doctest.h>
#include <stdlib.h>

namespace {

cae_v3::Tuning with(const char* name, const char* value) {
  setenv(name, value, 1);
  const cae_v3::Tuning t = cae_v3::Tuning::from_environment();
  unsetenv(name);
  return t;
}

}  // namespace

TEST_CASE("defaults when nothing is set") {
  unsetenv("CAE_V3_SPLIT_K_BLOCKS");
  unsetenv("CAE_V3_SPLIT_TILES");
  unsetenv("CAE_V3_FP32_CONV");
  unsetenv("CAE_V3_BF16_TERMS");
  const cae_v3::Tuning t = cae_v3::Tuning::from_environment();
  CHECK(t.split_k_blocks_per_sm == 2);
  CHECK(t.split_tiles_per_sm == 4);
  CHECK(t.side_stream);
  CHECK(t.short_k_products);
  CHECK_FALSE(t.fp32_convolutions);
  CHECK(t.bf16_terms == 1);
}

TEST_CASE("CAE_V3_SPLIT_K_BLOCKS is clamped to 1..8") {
  CHECK(with("CAE_V3_SPLIT_K_BLOCKS", "1").split_k_blocks_per_sm == 1);
  CHECK(with("CAE_V3_SPLIT_K_BLOCKS", "3").split_k_blocks_per_sm == 3);
  CHECK(with("CAE_V3_SPLIT_K_BLOCKS", "0").split_k_blocks_per_sm == 1);
  CHECK(with("CAE_V3_SPLIT_K_BLOCKS", "-5").split_k_blocks_per_sm == 1);
  CHECK(with("CAE_V3_SPLIT_K_BLOCKS", "99").split_k_blocks_per_sm == 8);
}

TEST_CASE("a value that is not a whole number keeps the default") {
  CHECK(with("CAE_V3_SPLIT_K_BLOCKS", "two").split_k_blocks_per_sm == 2);
  CHECK(with("CAE_V3_SPLIT_K_BLOCKS", "1.5").split_k_blocks_per_sm == 2);
  CHECK(with("CAE_V3_SPLIT_K_BLOCKS", "").split_k_blocks_per_sm == 2);
  CHECK(with("CAE_V3_SIDE_STREAM", "off").side_stream);
}

TEST_CASE("CAE_V3_SPLIT_TILES is clamped to 0..64") {
  CHECK(with("CAE_V3_SPLIT_TILES", "-1").split_tiles_per_sm == 0);
  CHECK(with("CAE_V3_SPLIT_TILES", "1000").split_tiles_per_sm == 64);
}

TEST_CASE("CAE_V3_BF16_TERMS is clamped to 1..3; CAE_V3_FP32_CONV is on for non-zero") {
  CHECK(with("CAE_V3_BF16_TERMS", "2").bf16_terms == 2);
  CHECK(with("CAE_V3_BF16_TERMS", "3").bf16_terms == 3);
  CHECK(with("CAE_V3_BF16_TERMS", "0").bf16_terms == 1);
  CHECK(with("CAE_V3_BF16_TERMS", "9").bf16_terms == 3);
  CHECK(with("CAE_V3_BF16_TERMS", "three").bf16_terms == 1);
  CHECK(with("CAE_V3_FP32_CONV", "1").fp32_convolutions);
  CHECK_FALSE(with("CAE_V3_FP32_CONV", "0").fp32_convolutions);
}
