// --features NAME (a feature recipe) for the commands that encode images, and
// the record of the recipe next to the features and in the report.
#pragma once

#include <string>
#include <utility>

#include "command.hpp"
#include "data/data_record.hpp"
#include "nn/checkpoint.hpp"
#include "nn/feature_recipe.hpp"

namespace cae::cli {

void add_features_option(po::options_description& options);

// The recipe --features names, with --feature-threshold's soft threshold; a
// UsageError listing the recipes, or naming the bad threshold, otherwise.
nn::FeatureRecipe feature_recipe_from(const po::variables_map& vm);

// Before any work: a UsageError naming --features when the recipe names a
// map `network` does not have.
void require_recipe_fits(const nn::FeatureRecipe& recipe, const nn::Network& network);
void require_recipe_fits(const nn::FeatureRecipe& recipe, const nn::ModelDescription& model);

// features.json: the recipe's name, dimension, taps, flip averaging and soft
// threshold, the weights the features were made with (their path and their
// identity, nn/weights_identity.hpp) and, when `model` has them, its input
// transform and sparsity, so a folder of .npy files says what its columns
// are and what produced them (provenance.hpp); with the data the features
// describe ("data") and the data `model` was trained on ("training_data",
// null when the checkpoint does not record it).
void write_features_json(const std::string& path, const nn::FeatureRecipe& recipe,
                         const nn::Network& network, const std::string& weights,
                         const std::string& weights_sha256, const nn::Checkpoint& model,
                         const DataRecord& data);

// {"features", "NAME (DIM-d: taps...)"} for the report's settings.
std::pair<std::string, std::string> feature_setting(const nn::FeatureRecipe& recipe,
                                                    const nn::Network& network);

}  // namespace cae::cli
