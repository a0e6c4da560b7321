// Feature recipes as data: which encoder activations ("taps") make up an
// image's feature vector, the fixed grid each is max-pooled to, and whether
// the features of the image and of its mirror image are averaged. A recipe
// names its taps by role (every encoder convolution, the latent), so it
// applies to any network; the fixed grids keep the feature's dimension from
// growing with the images (96x96 images give the same dimension as 32x32
// ones when every map is at least as large as its grid).
// The extraction loop (nn/features.cpp) is one loop driven by a recipe.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "nn/architecture.hpp"
#include "nn/autoencoder.hpp"
#include "nn/feature_encoders.hpp"

namespace cae::nn {

// The encoder maps of a network (nn/autoencoder.hpp's EncoderMap).
int map_channels(const Network& network, EncoderMap map);
int map_size(const Network& network, EncoderMap map);
std::string map_name(const Network& network, EncoderMap map);  // "conv1", ..., "latent"

// One activation map max-pooled to grid x grid cells: first by the device's
// 2x2 pools while each halving keeps whole cells (the seed's maps: all the
// way), then on the host by max over each cell's window where the size is
// not a power-of-two multiple of the grid (e.g. 24 -> 8: windows of 3).
// A map smaller than the grid is kept whole.
// A tap with an encoder or sum pooling (TapCoding not plain) is downloaded
// whole and encoded and pooled on the host, except on a backend across a bus
// when its max pooling commutes with the encoder or its sums are of whole
// 2x2 blocks (nn/features.cpp).
struct FeatureTap {
  EncoderMap map = 0;
  int grid = 1;    // the requested grid (8 = 8x8 cells)
  int size = 1;    // the map's own size
  int channels = 1;
  TapCoding coding;

  int cells() const { return grid < size ? grid : size; }  // per side, after pooling
  int64_t dim() const { return int64_t(coding.encoded_channels(channels)) * cells() * cells(); }
  // 2x2 max-pools of the map (or of its encoder's linear part) that keep whole cells.
  int max_pool_steps() const;
  // 2x2 max-pools on the device when the host encodes: none for an encoded tap.
  int device_steps() const { return coding.plain() ? max_pool_steps() : 0; }
  int device_size() const { return size >> device_steps(); }
  bool host_pooled() const { return device_size() != cells() || !coding.plain(); }
};

// One term of a composed recipe ("conv1:soft0.25:sum2"): a map by role, how
// it is encoded and the grid it is pooled to.
struct TapSpec {
  int conv = 0;  // the 1-based encoder convolution; 0 = the latent
  TapCoding coding;
  int grid = 4;
};

struct FeatureRecipe {
  enum class Layout {
    Latent,           // the latent to 8x8
    Pyramid,          // every encoder convolution and the latent, each to 4x4
    LatentQuadrants,  // the latent to 8x8, then every encoder convolution to 2x2
    Composed,         // the terms of `composed`, in order
  };
  std::string name;  // with a threshold: "BASE+threshold:ALPHA", which feature_recipe() reads back
  Layout layout = Layout::Latent;
  bool flip_average = false;  // mean of the image's and its mirror's features
  // The soft-threshold encoder: every feature f becomes max(0, f - threshold),
  // after pooling and flip averaging (0 = none: the features as they are).
  double threshold = 0;
  std::vector<TapSpec> composed;  // Layout::Composed only
  TapCoding coding;               // the other layouts: every tap's
  // sign(f) * sqrt(|f|) on every feature, after the threshold.
  bool signed_sqrt = false;

  // Concatenated in this order, each in CHW order. Throws
  // std::invalid_argument when a term names a convolution the network lacks.
  std::vector<FeatureTap> taps(const Network& network) const;
  // The same check before a network exists: a model of `encoder_layers`
  // convolutions called `model_name`.
  void require_maps(int encoder_layers, const std::string& model_name) const;
  int64_t dim(const Network& network) const;
  // "conv1 4x4 + conv2 4x4 + latent 4x4, averaged with the mirror image".
  std::string describe(const Network& network) const;
};

// Every named recipe; the first, "latent", is the seed's 8,192-d latent.
const std::vector<FeatureRecipe>& feature_recipes();

inline constexpr double kMaxFeatureThreshold = 1e6;

// A named recipe or a composed one (nn/feature_grammar.hpp), either with an
// optional "+threshold:ALPHA" (ALPHA a finite number in
// (0, kMaxFeatureThreshold]). Throws std::invalid_argument "unknown feature
// recipe 'NAME' (latent, ...)" or naming the bad term or threshold.
FeatureRecipe feature_recipe(const std::string& name);

// `recipe` with the soft threshold `alpha` (0: the recipe unchanged), named
// "NAME+threshold:ALPHA" with ALPHA as %g writes it (and that value used, so
// the name and the features agree). Throws std::invalid_argument for alpha
// negative, not finite or above kMaxFeatureThreshold.
FeatureRecipe with_threshold(const FeatureRecipe& recipe, double alpha);

// f = max(0, f - alpha), of one value.
inline float soft_thresholded(float f, float alpha) { return std::max(0.0f, f - alpha); }

// In place on `count` values: f = max(0, f - alpha).
void soft_threshold(float* features, size_t count, float alpha);

// Per recipe, "NAME: DESCRIPTION" and its dimension for each preset on
// 32x32 and 96x96 RGB images, for --help.
std::string feature_recipe_help();

}  // namespace cae::nn
