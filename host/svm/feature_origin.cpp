#include "svm/feature_origin.hpp"

#include "svm/svm_error.hpp"

namespace cae::svm {
namespace {

std::string field(const SafetensorsMetadata& metadata, const char* key) {
  const auto it = metadata.find(key);
  return it == metadata.end() ? std::string() : it->second;
}

}  // namespace

void write_feature_origin(const FeatureOrigin& origin, SafetensorsMetadata& metadata) {
  if (!origin.recipe.empty()) metadata["features_recipe"] = origin.recipe;
  if (!origin.weights_sha256.empty()) metadata["weights_sha256"] = origin.weights_sha256;
  if (!origin.weights_path.empty()) metadata["weights"] = origin.weights_path;
  if (!origin.data.empty()) metadata["data"] = origin.data;
}

FeatureOrigin read_feature_origin(const SafetensorsMetadata& metadata, const std::string& where) {
  FeatureOrigin origin;
  origin.recipe = field(metadata, "features_recipe");
  origin.weights_sha256 = field(metadata, "weights_sha256");
  origin.weights_path = field(metadata, "weights");
  origin.data = field(metadata, "data");
  if (!origin.weights_sha256.empty() &&
      (origin.weights_sha256.size() != 64 ||
       origin.weights_sha256.find_first_not_of("0123456789abcdef") != std::string::npos)) {
    throw SvmError(where + ": metadata 'weights_sha256' is not a SHA-256 digest");
  }
  return origin;
}

}  // namespace cae::svm
