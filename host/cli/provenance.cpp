#include "provenance.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "command.hpp"
#include "io/binary_file.hpp"
#include "io/io_error.hpp"
#include "io/strict_json.hpp"
#include "nn/weights_identity.hpp"
#include "svm/model_file.hpp"

namespace cae::cli {
namespace {

// features.json holds the recipe, its taps and two data records with their
// class names (at most 4,096 names of 256 bytes each): far below this.
constexpr uint64_t kMaxFeaturesJsonBytes = uint64_t(16) << 20;

std::runtime_error damaged(const std::string& path) {
  return std::runtime_error(path + " is damaged: not the JSON `cae extract` writes");
}

std::optional<DataRecord> data_of(const nlohmann::json& doc, const std::string& path) {
  const auto it = doc.find("data");
  if (it == doc.end() || it->is_null()) return std::nullopt;
  try {
    return data_record_from_json(*it);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path + ": 'data' " + printable_text(e.what()));
  }
}

// Two records describe the same images when the classes mean the same and
// the files are the same set (data/data_record.hpp's identity).
bool same_data(const DataRecord& a, const DataRecord& b) {
  return a.format == b.format && a.labels == b.labels && a.class_names == b.class_names &&
         a.channels == b.channels && a.side == b.side && a.files_sha256 == b.files_sha256;
}

}  // namespace

int64_t FeaturesRecord::classes() const {
  if (data && !data->class_names.empty()) return int64_t(data->class_names.size());
  return svm::kMaxModelClasses;
}

FeaturesRecord read_features_record(const std::string& dir) {
  const std::string path = dir + "/features.json";
  FeaturesRecord record;
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return record;
  // Through the folder's manifest, like every other file of the set.
  const nlohmann::json doc =
      parse_strict_json(read_binary_file(path, kMaxFeaturesJsonBytes, "features.json"), path);
  svm::FeatureOrigin& origin = record.origin;
  try {
    origin.recipe = doc.at("recipe").get<std::string>();
    if (doc.contains("weights_sha256")) {
      origin.weights_sha256 = doc.at("weights_sha256").get<std::string>();
    }
    // Only ever quoted in messages: kept printable.
    if (doc.contains("weights")) {
      origin.weights_path = printable_text(doc.at("weights").get<std::string>());
    }
  } catch (const nlohmann::json::exception&) {
    throw damaged(path);
  }
  std::optional<nn::FeatureRecipe> recipe;
  try {
    recipe = nn::feature_recipe(origin.recipe);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path + ": " + printable_text(e.what()));
  }
  // The dimension depends on the model and the images' size too: the recorded
  // one; files written before features.json recorded it hold the seed
  // network's on 32x32 images.
  try {
    if (!doc.contains("dim")) {
      record.dim = recipe->dim(nn::Network::seed());
    } else if (!doc.at("dim").is_number_integer()) {
      // A whole number only: get<int64_t> of 1e300 would be undefined.
      throw std::runtime_error(path + " is damaged: 'dim' is not a whole number");
    } else {
      record.dim = doc.at("dim").get<int64_t>();
    }
  } catch (const nlohmann::json::exception&) {
    throw damaged(path);
  }
  record.data = data_of(doc, path);
  if (record.data) origin.data = data_record_json(*record.data).dump();
  return record;
}

void require_features_width(const FeaturesRecord& record, const std::string& dir, int64_t columns) {
  if (record.origin.recipe.empty() || record.dim == columns) return;
  throw std::runtime_error(dir + "/features.json says recipe " + record.origin.recipe + " (" +
                           std::to_string(record.dim) + "-d), but " + dir +
                           "/train_features.npy has " + std::to_string(columns) + " columns");
}

void require_classifier_features(const std::string& model_path, const svm::FeatureOrigin& trained,
                                 const nn::FeatureRecipe& recipe, const std::string& weights_path,
                                 const std::string& weights_sha256) {
  if (!trained.recipe.empty() && trained.recipe != recipe.name) {
    throw UsageError(model_path + " was trained on " + trained.recipe +
                     " features, but --features " + recipe.name +
                     " gives other features; give --features " + trained.recipe);
  }
  if (!trained.weights_sha256.empty() && trained.weights_sha256 != weights_sha256) {
    throw UsageError(model_path + " was trained on features of the weights sha256 " +
                     nn::short_identity(trained.weights_sha256) +
                     (trained.weights_path.empty() ? "" : " (" + trained.weights_path + ")") +
                     ", but --weights " + weights_path + " holds sha256 " +
                     nn::short_identity(weights_sha256) +
                     "; evaluate with the checkpoint the features were extracted with");
  }
}

void require_classifier_data(const std::string& model_path, const svm::FeatureOrigin& trained,
                             const DataRecord& given) {
  if (trained.data.empty()) return;
  DataRecord recorded;
  try {
    recorded = data_record_from_json(parse_json_text(trained.data));
  } catch (const std::exception& e) {
    throw std::runtime_error(model_path +
                             ": metadata 'data' is damaged: " + printable_text(e.what()));
  }
  if (same_data(recorded, given)) return;
  // The class counts only when they differ: the usual culprit is the files.
  const auto classes = [&](const DataRecord& record) {
    return recorded.class_names.size() == given.class_names.size()
               ? std::string()
               : " of " + std::to_string(record.class_names.size()) + " classes";
  };
  throw UsageError(model_path + " was trained on features of " + data_record_summary(recorded) +
                   classes(recorded) + ", but --data gives " + data_record_summary(given) +
                   classes(given) + "; evaluate on the data the features were extracted from");
}

}  // namespace cae::cli
