#include "provenance.hpp"

#include <optional>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "io/io_error.hpp"
#include "io/strict_json.hpp"
#include "nn/weights_identity.hpp"

namespace cae::cli {

FeatureProvenance read_features_provenance(const std::string& dir, int64_t columns) {
  const std::string path = dir + "/features.json";
  FeatureProvenance provenance;
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return provenance;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw std::runtime_error(path + " is not a regular file");
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  // Strict: a key named twice or broken JSON is refused naming the file.
  const nlohmann::json doc = parse_strict_json(text.str(), path);
  try {
    provenance.recipe = doc.at("recipe").get<std::string>();
    if (doc.contains("weights_sha256")) {
      provenance.weights_sha256 = doc.at("weights_sha256").get<std::string>();
    }
    // Only ever quoted in messages: kept printable.
    if (doc.contains("weights")) {
      provenance.weights_path = printable_text(doc.at("weights").get<std::string>());
    }
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error(path + " is damaged: not the JSON `cae extract` writes");
  }
  std::optional<nn::FeatureRecipe> recipe;
  try {
    recipe = nn::feature_recipe(provenance.recipe);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path + ": " + printable_text(e.what()));
  }
  // The dimension depends on the model and the images' size too: the recorded
  // one; files written before features.json recorded it hold the seed
  // network's on 32x32 images.
  int64_t dim = 0;
  try {
    if (!doc.contains("dim")) {
      dim = recipe->dim(nn::Network::seed());
    } else if (!doc.at("dim").is_number_integer()) {
      // A whole number only: get<int64_t> of 1e300 would be undefined.
      throw std::runtime_error(path + " is damaged: 'dim' is not a whole number");
    } else {
      dim = doc.at("dim").get<int64_t>();
    }
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error(path + " is damaged: not the JSON `cae extract` writes");
  }
  if (dim != columns) {
    throw std::runtime_error(path + " says recipe " + recipe->name + " (" + std::to_string(dim) +
                             "-d), but " + dir + "/train_features.npy has " +
                             std::to_string(columns) + " columns");
  }
  return provenance;
}

void require_model_matches(const std::string& model_path, const svm::OvoModel& model,
                           const nn::FeatureRecipe& recipe, const std::string& weights_path,
                           const std::string& weights_sha256) {
  if (!model.features_recipe.empty() && model.features_recipe != recipe.name) {
    throw std::runtime_error(model_path + " was trained on " + model.features_recipe +
                             " features, but --features " + recipe.name +
                             " gives other features; give --features " + model.features_recipe);
  }
  if (!model.weights_sha256.empty() && model.weights_sha256 != weights_sha256) {
    throw std::runtime_error(
        model_path + " was trained on features of the weights sha256 " +
        nn::short_identity(model.weights_sha256) +
        (model.weights_path.empty() ? "" : " (" + model.weights_path + ")") + ", but --weights " +
        weights_path + " holds sha256 " + nn::short_identity(weights_sha256) +
        "; evaluate with the checkpoint the features were extracted with");
  }
}

}  // namespace cae::cli
