#include "nn/feature_recipe.hpp"

#include <stdexcept>

#include "nn/architecture.hpp"

namespace cae::nn {
namespace {

std::vector<FeatureRecipe> make_recipes() {
  using M = EncoderMap;
  // Per-map 4x4 grids: 4096 + 2048 + 2048 = 8,192-d, the latent's size, so the
  // SVM stage costs the same as with the reference.
  const std::vector<FeatureTap> pyramid = {{M::Conv1, 4}, {M::Conv2, 4}, {M::Latent, 4}};
  return {
      {"latent", {{M::Latent, kLatentSize}}, false},
      {"latent-flip", {{M::Latent, kLatentSize}}, true},
      {"pyramid", pyramid, false},
      {"pyramid-flip", pyramid, true},
      // The whole latent plus coarse (quadrant) summaries of the earlier maps.
      {"latent-quadrants", {{M::Latent, kLatentSize}, {M::Conv1, 2}, {M::Conv2, 2}}, false},
  };
}

}  // namespace

int map_channels(EncoderMap map) {
  return map == EncoderMap::Conv1 ? kLayers[0].out_channels : kLayers[1].out_channels;
}

int map_size(EncoderMap map) {
  switch (map) {
    case EncoderMap::Conv1:
      return kLayers[0].size;
    case EncoderMap::Conv2:
      return kLayers[1].size;
    case EncoderMap::Latent:
      return kLatentSize;
  }
  throw std::logic_error("unknown encoder map");
}

const char* map_name(EncoderMap map) {
  switch (map) {
    case EncoderMap::Conv1:
      return "conv1";
    case EncoderMap::Conv2:
      return "conv2";
    case EncoderMap::Latent:
      return "latent";
  }
  throw std::logic_error("unknown encoder map");
}

int64_t FeatureTap::dim() const { return int64_t(map_channels(map)) * grid * grid; }

int FeatureTap::pool_steps() const {
  int steps = 0;
  for (int size = map_size(map); size > grid; size /= 2) ++steps;
  if (grid < 1 || (map_size(map) >> steps) != grid) {
    throw std::logic_error(std::string("feature tap: ") + map_name(map) + " of size " +
                           std::to_string(map_size(map)) + " cannot be max-pooled to a grid of " +
                           std::to_string(grid));
  }
  return steps;
}

int64_t FeatureRecipe::dim() const {
  int64_t sum = 0;
  for (const FeatureTap& tap : taps) sum += tap.dim();
  return sum;
}

std::string FeatureRecipe::describe() const {
  std::string text;
  for (const FeatureTap& tap : taps) {
    if (!text.empty()) text += " + ";
    text += std::string(map_name(tap.map)) + " " + std::to_string(tap.grid) + "x" +
            std::to_string(tap.grid);
  }
  return text + (flip_average ? ", averaged with the mirror image" : "");
}

const std::vector<FeatureRecipe>& feature_recipes() {
  static const std::vector<FeatureRecipe> recipes = make_recipes();
  return recipes;
}

const FeatureRecipe& feature_recipe(const std::string& name) {
  std::string known;
  for (const FeatureRecipe& recipe : feature_recipes()) {
    if (recipe.name == name) return recipe;
    known += (known.empty() ? "" : ", ") + recipe.name;
  }
  throw std::invalid_argument("unknown feature recipe '" + name + "' (" + known + ")");
}

std::string feature_recipe_help() {
  std::string text;
  for (const FeatureRecipe& recipe : feature_recipes()) {
    text +=
        "\n  " + recipe.name + " (" + std::to_string(recipe.dim()) + "-d): " + recipe.describe();
  }
  return text;
}

}  // namespace cae::nn
