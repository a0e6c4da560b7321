// The encoders, pooling and grammar of composed feature recipes, each pinned
// to its definition on small hand-computed cases.
#include <doctest/doctest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "nn/feature_encoders.hpp"
#include "nn/feature_grammar.hpp"

namespace cae::nn {
namespace {

std::vector<float> encoded(const std::vector<float>& map, int channels, int size, TapCoding coding,
                           int cells) {
  std::vector<float> out(size_t(coding.encoded_channels(channels) * cells * cells));
  std::vector<float> scratch(size_t(2 * size * size));
  encode_and_pool(map.data(), channels, size, coding, cells, out.data(), scratch.data());
  return out;
}

TEST_CASE("the soft threshold split by sign: positive half, then negative half") {
  const TapCoding soft{TapEncoder::SoftSplit, 0.25f, CellPooling::Sum};
  // One channel, 2x2, summed into one cell: max(0, x - .25) = .75 0 .25 0;
  // max(0, -x - .25) = 0 1.75 0 0.
  CHECK(encoded({1.0f, -2.0f, 0.5f, -0.1f}, 1, 2, soft, 1) == std::vector<float>{1.0f, 1.75f});
  // Two channels: [pos c0, pos c1, neg c0, neg c1].
  CHECK(encoded({1.0f, -1.0f}, 2, 1, soft, 1) == std::vector<float>{0.75f, 0.0f, 0.0f, 0.75f});
  const TapCoding soft_max{TapEncoder::SoftSplit, 0.0f, CellPooling::Max};
  CHECK(encoded({1.0f, -2.0f, 0.5f, -0.1f}, 1, 2, soft_max, 1) == std::vector<float>{1.0f, 2.0f});
}

TEST_CASE("the triangle code: what a channel exceeds the mean of all channels by") {
  const TapCoding tri{TapEncoder::Triangle, 0.0f, CellPooling::Sum};
  CHECK(encoded({3.0f, 0.0f, 0.0f}, 3, 1, tri, 1) == std::vector<float>{2.0f, 0.0f, 0.0f});
  // Per position of a 2x2 map: c0 = 4 1 0 2, c1 = 0 1 2 2, means 2 1 1 2.
  const std::vector<float> map = {4.0f, 1.0f, 0.0f, 2.0f, 0.0f, 1.0f, 2.0f, 2.0f};
  CHECK(encoded(map, 2, 2, tri, 1) == std::vector<float>{2.0f, 1.0f});
  const TapCoding tri_max{TapEncoder::Triangle, 0.0f, CellPooling::Max};
  CHECK(encoded(map, 2, 2, tri_max, 2) ==
        std::vector<float>{2.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f});
}

TEST_CASE("an all-zero map encodes to zeros under every encoder and pooling") {
  const std::vector<float> zeros(2 * 4 * 4, 0.0f);
  for (TapEncoder encoder : {TapEncoder::Identity, TapEncoder::SoftSplit, TapEncoder::Triangle}) {
    for (CellPooling pooling : {CellPooling::Max, CellPooling::Sum}) {
      const std::vector<float> out = encoded(zeros, 2, 4, {encoder, 0.5f, pooling}, 2);
      CHECK(out == std::vector<float>(out.size(), 0.0f));
    }
  }
}

TEST_CASE("sum pooling into quadrants and 3x3 regions") {
  std::vector<float> ramp(16);
  for (size_t i = 0; i < ramp.size(); ++i) ramp[i] = float(i);
  const TapCoding sum{TapEncoder::Identity, 0.0f, CellPooling::Sum};
  CHECK(encoded(ramp, 1, 4, sum, 2) == std::vector<float>{10.0f, 18.0f, 42.0f, 50.0f});
  // 3 cells on 4: windows [0,2) [1,3) [2,4) on each axis.
  const std::vector<float> nine = encoded(ramp, 1, 4, sum, 3);
  CHECK(nine[0] == 0.0f + 1 + 4 + 5);
  CHECK(nine[4] == 5.0f + 6 + 9 + 10);
  CHECK(nine[8] == 10.0f + 11 + 14 + 15);
  const TapCoding max{TapEncoder::Identity, 0.0f, CellPooling::Max};
  CHECK(encoded(ramp, 1, 4, max, 2) == std::vector<float>{5.0f, 7.0f, 13.0f, 15.0f});
}

// The encoder's linear part applied at every position of a [channels, size,
// size] map, as a backend's 1x1 convolution computes it.
std::vector<float> linear_part(const std::vector<float>& map, int channels, int size,
                               const TapCoding& coding) {
  const std::vector<float> weights = encoder_linear_part(coding, channels);
  const size_t plane = size_t(size * size), rows = size_t(coding.encoded_channels(channels));
  std::vector<float> out(rows * plane, 0.0f);
  for (size_t o = 0; o < rows; ++o) {
    for (size_t c = 0; c < size_t(channels); ++c) {
      for (size_t p = 0; p < plane; ++p) out[o * plane + p] += weights[o * size_t(channels) + c] * map[c * plane + p];
    }
  }
  return out;
}

TEST_CASE("the encoders' linear parts: identity, I - 1/C, and [I; -I]") {
  CHECK(encoder_linear_part({}, 2) == std::vector<float>{1.0f, 0.0f, 0.0f, 1.0f});
  CHECK(encoder_linear_part({TapEncoder::Triangle, 0.0f, CellPooling::Max}, 2) ==
        std::vector<float>{0.5f, -0.5f, -0.5f, 0.5f});
  CHECK(encoder_linear_part({TapEncoder::SoftSplit, 0.3f, CellPooling::Max}, 2) ==
        std::vector<float>{1.0f, 0.0f, 0.0f, 1.0f, -1.0f, 0.0f, 0.0f, -1.0f});
  std::vector<float> values = {-1.0f, 0.1f, 0.5f};
  finish_encoded(values.data(), values.size(), {TapEncoder::SoftSplit, 0.25f, CellPooling::Max});
  CHECK(values == std::vector<float>{0.0f, 0.0f, 0.25f});
  CHECK(pools_before_finishing({TapEncoder::Triangle, 0.0f, CellPooling::Max}));
  CHECK_FALSE(pools_before_finishing({TapEncoder::Triangle, 0.0f, CellPooling::Sum}));
  CHECK_FALSE(pools_before_finishing({}));  // plain: nothing to finish
}

TEST_CASE("max pooling commutes with the encoders: linear part, max over cells, then finish") {
  std::mt19937 random(7);
  std::normal_distribution<float> normal;
  for (TapEncoder encoder : {TapEncoder::Triangle, TapEncoder::SoftSplit}) {
    for (int cells : {1, 2, 3, 6}) {
      CAPTURE(cells);
      const int channels = 5, size = 6;
      std::vector<float> map(size_t(channels * size * size));
      for (float& value : map) value = normal(random);
      const TapCoding coding{encoder, 0.2f, CellPooling::Max};
      const std::vector<float> direct = encoded(map, channels, size, coding, cells);
      const int rows = coding.encoded_channels(channels);
      std::vector<float> pooled = encoded(linear_part(map, channels, size, coding), rows, size,
                                          TapCoding{}, cells);
      finish_encoded(pooled.data(), pooled.size(), coding);
      REQUIRE(pooled.size() == direct.size());
      for (size_t i = 0; i < direct.size(); ++i) CHECK(pooled[i] == doctest::Approx(direct[i]).epsilon(1e-5));
    }
  }
}

TEST_CASE("the signed square root keeps the sign") {
  std::vector<float> values = {-4.0f, 9.0f, 0.0f, 0.25f};
  signed_sqrt(values.data(), values.size());
  CHECK(values == std::vector<float>{-2.0f, 3.0f, 0.0f, 0.5f});
}

TEST_CASE("the grammar: defaults written out, canonical names read back the same") {
  CHECK(parse_composed_recipe("conv1:soft0.25+latent").name == "conv1:soft0.25:sum2+latent:id:max8");
  CHECK(parse_composed_recipe("conv2+conv1:tri:max3+sqrt+flip").name ==
        "conv2:id:max4+conv1:tri:max3+flip+sqrt");
  CHECK(parse_composed_recipe("conv1:sum2").name == "conv1:id:sum2");
  const FeatureRecipe recipe = parse_composed_recipe("conv1:soft0.1:sum3+latent+sqrt");
  CHECK(recipe.signed_sqrt);
  CHECK_FALSE(recipe.flip_average);
  REQUIRE(recipe.composed.size() == 2);
  CHECK(recipe.composed[0].conv == 1);
  CHECK(recipe.composed[0].grid == 3);
  CHECK(recipe.composed[0].coding.alpha == 0.1f);
  CHECK(recipe.composed[1].conv == 0);
  CHECK(parse_composed_recipe(recipe.name).name == recipe.name);
  CHECK(is_composed_recipe("conv1"));
  CHECK_FALSE(is_composed_recipe("pyramid"));
}

TEST_CASE("the grammar refuses a bad term with one line naming it") {
  CHECK_THROWS_WITH_AS(parse_composed_recipe("conv0"),
                       "feature recipe term 'conv0': the map 'conv0' is neither 'latent' nor convK "
                       "(K = 1..16)",
                       std::invalid_argument);
  CHECK_THROWS_AS(parse_composed_recipe("conv17"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_composed_recipe("conv1:soft-1"),
                       "feature recipe term 'conv1:soft-1': 'soft-1' needs a threshold from 0 to "
                       "1e6 after 'soft' (e.g. soft0.25)",
                       std::invalid_argument);
  CHECK_THROWS_AS(parse_composed_recipe("conv1:softnan"), std::invalid_argument);
  CHECK_THROWS_AS(parse_composed_recipe("conv1:soft1e9"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_composed_recipe("conv1:tri:sum0"),
                       "feature recipe term 'conv1:tri:sum0': the pooling 'sum0' needs a grid of "
                       "1..64 cells per side",
                       std::invalid_argument);
  CHECK_THROWS_AS(parse_composed_recipe("conv1:tri:avg2"), std::invalid_argument);
  CHECK_THROWS_AS(parse_composed_recipe("conv1:hard"), std::invalid_argument);
  CHECK_THROWS_AS(parse_composed_recipe("conv1:id:max2:x"), std::invalid_argument);
  CHECK_THROWS_AS(parse_composed_recipe("conv1++latent"), std::invalid_argument);
  CHECK_THROWS_AS(parse_composed_recipe("conv1+flip+flip"), std::invalid_argument);
  CHECK_THROWS_AS(parse_composed_recipe("flip+sqrt"), std::invalid_argument);
}

}  // namespace
}  // namespace cae::nn
