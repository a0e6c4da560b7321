#include "nn/feature_recipe.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "io/io_error.hpp"
#include "nn/feature_grammar.hpp"

namespace cae::nn {
namespace {

constexpr int kLatentGrid = 8;    // the seed's latent is 8x8: its feature is unpooled
constexpr int kPyramidGrid = 4;   // 4096 + 2048 + 2048 = 8,192 for the seed
constexpr int kSummaryGrid = 2;   // quadrants

FeatureRecipe named(const char* name, FeatureRecipe::Layout layout, bool flip_average,
                    TapCoding coding = {}) {
  FeatureRecipe recipe;
  recipe.name = name;
  recipe.layout = layout;
  recipe.flip_average = flip_average;
  recipe.coding = coding;
  return recipe;
}

// The triangle code, then the max over each cell: the triangle-coded pyramid,
// within a seed's noise of the best recipe (which sums the convolutions'
// codes instead) on CIFAR-10 (JPEG q75 copy); docs/features.md.
constexpr TapCoding kTriangleMax{TapEncoder::Triangle, 0.0f, CellPooling::Max};

std::vector<FeatureRecipe> make_recipes() {
  using L = FeatureRecipe::Layout;
  return {
      named("latent", L::Latent, false),
      named("latent-flip", L::Latent, true),
      named("pyramid", L::Pyramid, false),
      named("pyramid-flip", L::Pyramid, true),
      named("pyramid-tri", L::Pyramid, false, kTriangleMax),
      named("pyramid-tri-flip", L::Pyramid, true, kTriangleMax),
      // The whole latent plus coarse (quadrant) summaries of the earlier maps.
      named("latent-quadrants", L::LatentQuadrants, false),
  };
}

FeatureTap tap(const Network& network, EncoderMap map, int grid, TapCoding coding = {}) {
  return {map, grid, map_size(network, map), map_channels(network, map), coding};
}

// "conv3" of a recipe on a model of two convolutions: one line naming both.
EncoderMap composed_map(int encoder_layers, const std::string& model_name,
                        const std::string& recipe, const TapSpec& spec) {
  if (spec.conv == 0) return encoder_layers;  // the latent
  if (spec.conv > encoder_layers) {
    std::string maps;
    for (int k = 1; k <= encoder_layers; ++k) maps += "conv" + std::to_string(k) + ", ";
    throw std::invalid_argument("feature recipe '" + text_excerpt(recipe) + "': the model '" +
                                model_name + "' has no conv" + std::to_string(spec.conv) +
                                " (its maps: " + maps + "latent)");
  }
  return spec.conv - 1;
}

std::string coding_text(const TapCoding& coding) {
  char alpha[32];
  std::snprintf(alpha, sizeof alpha, "%g", double(coding.alpha));
  switch (coding.encoder) {
    case TapEncoder::Identity: return "";
    case TapEncoder::SoftSplit: return std::string(" soft threshold ") + alpha + " split by sign";
    case TapEncoder::Triangle: return " triangle code";
  }
  return "";
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

int FeatureTap::max_pool_steps() const {
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
      taps.push_back(tap(network, latent, kLatentGrid, coding));
      break;
    case Layout::Pyramid:
      for (EncoderMap map = 0; map <= latent; ++map) {
        taps.push_back(tap(network, map, kPyramidGrid, coding));
      }
      break;
    case Layout::LatentQuadrants:
      taps.push_back(tap(network, latent, kLatentGrid, coding));
      for (EncoderMap map = 0; map < latent; ++map) {
        taps.push_back(tap(network, map, kSummaryGrid, coding));
      }
      break;
    case Layout::Composed:
      for (const TapSpec& spec : composed) {
        const EncoderMap map =
            composed_map(network.encoder_layers(), network.description().name, name, spec);
        taps.push_back(tap(network, map, spec.grid, spec.coding));
      }
      break;
  }
  return taps;
}

void FeatureRecipe::require_maps(int encoder_layers, const std::string& model_name) const {
  for (const TapSpec& spec : composed) composed_map(encoder_layers, model_name, name, spec);
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
    text += map_name(network, t.map) + coding_text(t.coding) + " " + std::to_string(t.cells()) +
            "x" + std::to_string(t.cells()) +
            (t.coding.pooling == CellPooling::Sum ? " sums" : "");
  }
  text += flip_average ? ", averaged with the mirror image" : "";
  if (threshold > 0.0) {
    char alpha[32];
    std::snprintf(alpha, sizeof alpha, "%g", threshold);
    text += std::string(", soft threshold ") + alpha;
  }
  if (signed_sqrt) text += ", signed square root";
  return text;
}

const std::vector<FeatureRecipe>& feature_recipes() {
  static const std::vector<FeatureRecipe> recipes = make_recipes();
  return recipes;
}

namespace {

// A named recipe or a composed one, without a threshold.
FeatureRecipe base_recipe(const std::string& base, const std::string& whole_name) {
  std::string known;
  for (const FeatureRecipe& recipe : feature_recipes()) {
    if (recipe.name == base) return recipe;
    known += (known.empty() ? "" : ", ") + recipe.name;
  }
  if (is_composed_recipe(base)) return parse_composed_recipe(base);
  // The name may come from a file (features.json): quoted by an excerpt.
  throw std::invalid_argument("unknown feature recipe '" + text_excerpt(whole_name) + "' (" + known +
                              ", or composed terms such as conv1:soft0.25:sum2+latent)");
}

}  // namespace

FeatureRecipe feature_recipe(const std::string& name) {
  static const std::string kThreshold = "+threshold:";
  const size_t suffix = name.find(kThreshold);
  const FeatureRecipe recipe = base_recipe(name.substr(0, suffix), name);
  if (suffix == std::string::npos) return recipe;
  const std::string value = name.substr(suffix + kThreshold.size());
  char* end = nullptr;
  const double alpha = value.empty() ? 0.0 : std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || !(alpha > 0.0)) {
    throw std::invalid_argument("feature recipe '" + text_excerpt(name) + "': the threshold '" +
                                text_excerpt(value) + "' is not a number above 0");
  }
  return with_threshold(recipe, alpha);
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
  for (size_t i = 0; i < count; ++i) features[i] = soft_thresholded(features[i], alpha);
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
  return text + "\n  (dimension per model preset on 32x32 / 96x96 RGB images)"
                "\n  or composed: TERM[+TERM...][+flip][+sqrt], TERM = MAP[:ENCODER][:POOL], MAP"
                "\n  latent or convK, ENCODER id, softALPHA (split by sign) or tri (triangle), POOL"
                "\n  maxG or sumG (G x G cells), e.g. conv1:soft0.25:sum2+latent (docs/features.md)";
}

}  // namespace cae::nn
