// What a classifier was trained on: the features' recipe, the identity of the
// encoder weights that made them (nn/weights_identity.hpp) and the data they
// describe. Both classifier files (the kernel SVM's and the linear one's)
// carry it in the same metadata fields, so `cae evaluate` checks either kind
// against the --weights, --features and --data it is given (cli/provenance.hpp).
#pragma once

#include <string>

#include "io/safetensors.hpp"

namespace cae::svm {

struct FeatureOrigin {
  std::string recipe;          // metadata "features_recipe"; "" when unknown
  std::string weights_sha256;  // "weights_sha256"; "" when unknown
  std::string weights_path;    // "weights": the checkpoint as it was named (messages only)
  // "data": the data record of the images the features describe
  // (data/data_record.hpp), as JSON text; "" when unknown. Kept as text here
  // (the classifier does not interpret it); the command that compares it
  // parses it.
  std::string data;
};

// Adds the known fields to a model file's metadata.
void write_feature_origin(const FeatureOrigin& origin, SafetensorsMetadata& metadata);

// The fields of a model file's metadata; a weights_sha256 that is not a
// SHA-256 digest is an SvmError "<where>: metadata 'weights_sha256' ...".
FeatureOrigin read_feature_origin(const SafetensorsMetadata& metadata, const std::string& where);

}  // namespace cae::svm
