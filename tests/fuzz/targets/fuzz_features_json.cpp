// Fuzzes features.json, the provenance `cae extract` writes beside the
// features (recipe, model, dimension, the weights' hash, the data and its
// classes) and `cae svm` / `cae evaluate` check.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "cli/provenance.hpp"
#include "nn/architecture.hpp"
#include "nn/feature_recipe.hpp"
#include "reader_contract.hpp"
#include "scratch_folder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  cae::fuzz::put_scratch_file("features.json", bytes);
  // The seed network's latent features, and a small model's as the seeds record.
  static const int64_t seed_latent =
      cae::nn::feature_recipe("latent").dim(cae::nn::Network::seed());
  try {
    const cae::cli::FeaturesRecord record =
        cae::cli::read_features_record(cae::fuzz::scratch_folder());
    // What is accepted is usable: a class count a label reader can take.
    if (record.classes() < 1) std::abort();
    for (int64_t columns : {seed_latent, int64_t(4)}) {
      try {
        cae::cli::require_features_width(record, cae::fuzz::scratch_folder(), columns);
      } catch (const std::runtime_error& error) {
        cae::fuzz::require_good_message(error.what(), "features.json");
      }
    }
  } catch (const std::runtime_error& error) {
    cae::fuzz::require_good_message(error.what(), "features.json");
  }
  return 0;
}
