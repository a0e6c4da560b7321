#include "nn/feature_recipe.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "io/io_error.hpp"

namespace cae::nn {
namespace {

constexpr int kLatentGrid = 8;    // the seed's latent is 8x8: its feature is unpooled
constexpr int kPyramidGrid = 4;   // 4096 + 2048 + 2048 = 8,192 for the seed
constexpr int kSummaryGrid = 2;   // quadrants

std::vector<FeatureRecipe> make_recipes() {
  using L = FeatureRecipe::Layout;
  return {
      {"latent", L::Latent, false},
      {"latent-flip", L::Latent, true},
      {"pyramid", L::Pyramid, false},
      {"pyramid-flip", L::Pyramid, true},
      // The whole latent plus coarse (quadrant) summaries of the earlier maps.
      {"latent-quadrants", L::LatentQuadrants, false},
  };
}

FeatureTap tap(const Network& network, EncoderMap map, int grid) {
  return {map, grid, map_size(network, map), map_channels(network, map)};
}

}  // namespace

int map_channels(const Network& network, EncoderMap map) {
  const int last = network.encoder_layers() - 1;
  return network.layers()[size_t(map < last ? map : last)].out_channels;
}

int map_size(const Network& network, EncoderMap map) {
  if (map == network.encoder_layers()) return network.latent_size();
  return network.layers()[size_t(map)].size;
}

std::string map_name(const Network& network, EncoderMap map) {
  if (map == network.encoder_layers()) return "latent";
  return "conv" + std::to_string(map + 1);
}

int FeatureTap::device_steps() const {
  int steps = 0;
  // Halve while the halves stay whole multiples of the cells, so each cell
  // of the host's last pool covers whole 2x2-pooled cells: the result is the
  // max over the cell's window either way.
  for (int s = size; s % 2 == 0 && (s / 2) >= cells() && (s / 2) % cells() == 0; s /= 2) ++steps;
  return steps;
}

std::vector<FeatureTap> FeatureRecipe::taps(const Network& network) const {
  const EncoderMap latent = network.encoder_layers();
  std::vector<FeatureTap> taps;
  switch (layout) {
    case Layout::Latent:
      taps.push_back(tap(network, latent, kLatentGrid));
      break;
    case Layout::Pyramid:
      for (EncoderMap map = 0; map <= latent; ++map) taps.push_back(tap(network, map, kPyramidGrid));
      break;
    case Layout::LatentQuadrants:
      taps.push_back(tap(network, latent, kLatentGrid));
      for (EncoderMap map = 0; map < latent; ++map) taps.push_back(tap(network, map, kSummaryGrid));
      break;
  }
  return taps;
}

int64_t FeatureRecipe::dim(const Network& network) const {
  int64_t sum = 0;
  for (const FeatureTap& t : taps(network)) sum += t.dim();
  return sum;
}

std::string FeatureRecipe::describe(const Network& network) const {
  std::string text;
  for (const FeatureTap& t : taps(network)) {
    if (!text.empty()) text += " + ";
    text += map_name(network, t.map) + " " + std::to_string(t.cells()) + "x" +
            std::to_string(t.cells());
  }
  text += flip_average ? ", averaged with the mirror image" : "";
  if (threshold > 0.0) {
    char alpha[32];
    std::snprintf(alpha, sizeof alpha, "%g", threshold);
    text += std::string(", soft threshold ") + alpha;
  }
  return text;
}

const std::vector<FeatureRecipe>& feature_recipes() {
  static const std::vector<FeatureRecipe> recipes = make_recipes();
  return recipes;
}

FeatureRecipe feature_recipe(const std::string& name) {
  static const std::string kThreshold = "+threshold:";
  const size_t suffix = name.find(kThreshold);
  const std::string base = name.substr(0, suffix);
  std::string known;
  for (const FeatureRecipe& recipe : feature_recipes()) {
    if (recipe.name != base) {
      known += (known.empty() ? "" : ", ") + recipe.name;
      continue;
    }
    if (suffix == std::string::npos) return recipe;
    const std::string value = name.substr(suffix + kThreshold.size());
    char* end = nullptr;
    const double alpha = value.empty() ? 0.0 : std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !(alpha > 0.0)) {
      throw std::invalid_argument("feature recipe '" + text_excerpt(name) + "': the threshold '" +
                                  text_excerpt(value) +
                                  "' is not a number above 0");
    }
    return with_threshold(recipe, alpha);
  }
  // The name may come from a file (features.json): quoted by an excerpt.
  throw std::invalid_argument("unknown feature recipe '" + text_excerpt(name) + "' (" + known + ")");
}

FeatureRecipe with_threshold(const FeatureRecipe& recipe, double alpha) {
  if (!(alpha >= 0.0 && alpha <= kMaxFeatureThreshold)) {
    throw std::invalid_argument("the feature threshold must be a finite number from 0 to 1e6");
  }
  if (alpha == 0.0) return recipe;
  char text[32];
  std::snprintf(text, sizeof text, "%g", alpha);
  FeatureRecipe thresholded = recipe;
  thresholded.threshold = std::strtod(text, nullptr);
  thresholded.name = recipe.name + "+threshold:" + text;
  return thresholded;
}

void soft_threshold(float* features, size_t count, float alpha) {
  for (size_t i = 0; i < count; ++i) features[i] = std::max(0.0f, features[i] - alpha);
}

std::string feature_recipe_help() {
  const Network seed = Network::seed();
  std::string text;
  for (const FeatureRecipe& recipe : feature_recipes()) {
    text += "\n  " + recipe.name + ": " + recipe.describe(seed) + "; dimension";
    for (const std::string& preset : model_preset_names()) {
      const ModelDescription description = model_preset(preset);
      text += " " + preset + " " + std::to_string(recipe.dim(Network(description, 3, 32))) + "/" +
              std::to_string(recipe.dim(Network(description, 3, 96)));
    }
  }
  return text + "\n  (dimension per model preset on 32x32 / 96x96 RGB images)";
}

}  // namespace cae::nn
