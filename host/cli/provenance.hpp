// Provenance: every product says what produced it, and a command refuses to
// combine products of different origins. Features carry the recipe and the
// identity of the weights they were encoded with (features.json); `cae svm`
// copies both into the SVM model; `cae evaluate` checks the model against
// the --weights and --features it is given, and a report records them.
#pragma once

#include <string>

#include "nn/feature_recipe.hpp"
#include "svm/ovo_model.hpp"

namespace cae::cli {

struct FeatureProvenance {
  std::string recipe;          // "" when unknown
  std::string weights_sha256;  // "" when unknown
  std::string weights_path;    // the checkpoint as it was named (for messages)
};

// DIR/features.json as `cae extract` writes it; all fields empty when the
// folder has none (features made by other tools). A damaged file, or a
// recipe this cae does not know, is a std::runtime_error naming the file.
FeatureProvenance read_features_provenance(const std::string& dir, int64_t columns);

// Refuses (std::runtime_error, one line naming both sides) a model trained on
// features of another recipe or of other weights than those given.
void require_model_matches(const std::string& model_path, const svm::OvoModel& model,
                           const nn::FeatureRecipe& recipe, const std::string& weights_path,
                           const std::string& weights_sha256);

}  // namespace cae::cli
