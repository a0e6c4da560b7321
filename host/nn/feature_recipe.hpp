// Feature recipes as data: which encoder activations ("taps") make up an
// image's feature vector, how far each is max-pooled on the device, and
// whether the features of the image and of its mirror image are averaged.
// The extraction loop (nn/features.cpp) is one loop driven by a recipe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nn/autoencoder.hpp"

namespace cae::nn {

// One activation map pooled by repeated 2x2 max-pools down to grid x grid
// cells (1 = global max, 2 = quadrants, ...; the map's own size = unpooled).
struct FeatureTap {
  EncoderMap map;
  int grid;

  int64_t dim() const;     // channels * grid * grid
  int pool_steps() const;  // 2x2 max-pools from the map's size down to grid
};

struct FeatureRecipe {
  std::string name;
  std::vector<FeatureTap> taps;  // concatenated in this order, each in CHW order
  bool flip_average = false;     // mean of the image's and its mirror's features

  int64_t dim() const;
  // "conv1/4 + conv2/4 + latent/4, flip-averaged": what the report shows.
  std::string describe() const;
};

int map_channels(EncoderMap map);
int map_size(EncoderMap map);
const char* map_name(EncoderMap map);

// Every named recipe; the first, "latent", is the seed's 8,192-d latent.
const std::vector<FeatureRecipe>& feature_recipes();

// Throws std::invalid_argument "unknown feature recipe 'NAME' (latent, ...)".
const FeatureRecipe& feature_recipe(const std::string& name);

// One line per recipe, "NAME (DIM-d): DESCRIPTION", for --help.
std::string feature_recipe_help();

}  // namespace cae::nn
