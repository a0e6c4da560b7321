// The trained SVM on disk: one safetensors file (float32 tensors plus string
// metadata), written atomically.
//
// Metadata: format "cae-svm-ovo", format_version "1", kernel, gamma, C, dim;
// when known, the features' provenance (svm/feature_origin.hpp):
// features_recipe, weights_sha256, weights (the checkpoint's path) and data.
// Tensors: classes [k]; sv_rows [n, dim]; sv_class [n]; sv_source [n];
// pair_classes [P, 2]; pair_rho [P]; pair_offsets [P + 1] into the
// concatenated pair_support [T] / pair_coef [T]; standardizer_mean and
// standardizer_scale [dim] when the model has a standardizer. Integers are
// stored as floats, exact below 2^24 (checked on save).
#pragma once

#include <cstdint>
#include <string>

#include "svm/ovo_model.hpp"

namespace cae::svm {

// The most classes a model file holds (load_model refuses more).
constexpr int64_t kMaxModelClasses = 4096;

// Throws IoError (file system) or SvmError (a model too large to store).
void save_model(const OvoModel& model, const std::string& path);

// Throws IoError or SvmError with one line naming `path` and the problem;
// every tensor is checked finite (io/safetensors) and every count and index
// against the others.
OvoModel load_model(const std::string& path);

// The same for the file's bytes already in memory (`path` names it in messages).
OvoModel parse_model(const std::string& bytes, const std::string& path);

}  // namespace cae::svm
