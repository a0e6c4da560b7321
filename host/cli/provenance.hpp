// Provenance: every product says what produced it, and a command refuses to
// combine products of different origins. Features carry the recipe, the
// identity of the weights they were encoded with and the data they describe
// (features.json); `cae svm` copies all three into either classifier's file
// (svm/feature_origin.hpp); `cae evaluate` checks the classifier against the
// --weights, --features and --data it is given, and a report records them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "data/data_record.hpp"
#include "nn/feature_recipe.hpp"
#include "svm/feature_origin.hpp"

namespace cae::cli {

// DIR/features.json as `cae extract` writes it.
struct FeaturesRecord {
  svm::FeatureOrigin origin;       // all fields empty when the folder has none
  std::optional<DataRecord> data;  // the data the features describe, when recorded
  int64_t dim = 0;                 // the recipe's dimension; 0 when unknown
  // The labels' classes: the recorded data's class count, or, for features
  // without a record (made by other tools), the most a classifier holds.
  int64_t classes() const;
};

// Reads DIR/features.json through its folder's output set (io/output_set.hpp:
// a file another run wrote, or one changed since, is refused). An empty
// record when the folder has none. A damaged file, or a recipe this cae does
// not know, is a std::runtime_error naming the file.
FeaturesRecord read_features_record(const std::string& dir);

// A std::runtime_error when `record` names a dimension other than the
// `columns` of DIR/train_features.npy.
void require_features_width(const FeaturesRecord& record, const std::string& dir, int64_t columns);

// Before encoding: a UsageError (exit 2, one line naming both sides) when the
// classifier at `model_path` was trained on features of another recipe or
// of other weights than those given.
void require_classifier_features(const std::string& model_path, const svm::FeatureOrigin& trained,
                                 const nn::FeatureRecipe& recipe, const std::string& weights_path,
                                 const std::string& weights_sha256);

// Once the data is known: a UsageError when the classifier was trained on
// features of other data (another format, label set, class names, image
// shape or files) than `given`.
void require_classifier_data(const std::string& model_path, const svm::FeatureOrigin& trained,
                             const DataRecord& given);

}  // namespace cae::cli
