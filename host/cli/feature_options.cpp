#include "feature_options.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "io/atomic_file.hpp"

namespace cae::cli {
namespace {

std::string encoder_name(const nn::TapCoding& coding) {
  switch (coding.encoder) {
    case nn::TapEncoder::Identity: return "identity";
    case nn::TapEncoder::SoftSplit: {
      char alpha[32];
      std::snprintf(alpha, sizeof alpha, "%g", double(coding.alpha));
      return std::string("soft-split:") + alpha;
    }
    case nn::TapEncoder::Triangle: return "triangle";
  }
  return "identity";
}

}  // namespace

void add_features_option(po::options_description& options) {
  options.add_options()
      ("features", po::value<std::string>()->default_value("latent")->value_name("NAME"),
       ("feature recipe:" + nn::feature_recipe_help()).c_str())
      ("feature-threshold", po::value<double>()->default_value(0.0, "0")->value_name("ALPHA"),
       "soft-threshold encoder: every feature f becomes max(0, f - ALPHA) (0 = none); recorded "
       "with the recipe as NAME+threshold:ALPHA");
}

nn::FeatureRecipe feature_recipe_from(const po::variables_map& vm) {
  nn::FeatureRecipe recipe;
  try {
    recipe = nn::feature_recipe(vm["features"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--features: ") + e.what());
  }
  const double alpha = vm["feature-threshold"].as<double>();
  if (alpha != 0.0 && recipe.threshold > 0.0) {
    throw UsageError("--feature-threshold and a --features NAME+threshold:ALPHA both give a threshold; give one");
  }
  try {
    return nn::with_threshold(recipe, alpha);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--feature-threshold: ") + e.what());
  }
}

void require_recipe_fits(const nn::FeatureRecipe& recipe, const nn::Network& network) {
  require_recipe_fits(recipe, network.description());
}

void require_recipe_fits(const nn::FeatureRecipe& recipe, const nn::ModelDescription& model) {
  try {
    recipe.require_maps(int(model.encoder.size()), model.name);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--features: ") + e.what());
  }
}

void write_features_json(const std::string& path, const nn::FeatureRecipe& recipe,
                         const nn::Network& network, const std::string& weights,
                         const std::string& weights_sha256, const nn::Checkpoint& model,
                         const DataRecord& data) {
  nlohmann::ordered_json taps = nlohmann::ordered_json::array();
  for (const nn::FeatureTap& tap : recipe.taps(network)) {
    taps.push_back(
        {{"map", nn::map_name(network, tap.map)}, {"grid", tap.cells()}, {"dim", tap.dim()}});
    // Only when used: the named recipes' features.json stays as it was.
    if (!tap.coding.plain()) {
      taps.back()["encoder"] = encoder_name(tap.coding);
      taps.back()["pooling"] = tap.coding.pooling == nn::CellPooling::Sum ? "sum" : "max";
    }
  }
  nlohmann::ordered_json doc = {{"recipe", recipe.name},
                                {"model", network.description().name},
                                {"dim", recipe.dim(network)},
                                {"taps", taps},
                                {"flip_average", recipe.flip_average},
                                {"weights", weights},
                                {"weights_sha256", weights_sha256},
                                {"data", data_record_json(data)},
                                {"training_data", model.state.data
                                                      ? data_record_json(*model.state.data)
                                                      : nlohmann::ordered_json()}};
  // Only when used: a default run's features.json stays as it was.
  if (recipe.threshold > 0.0) doc["threshold"] = recipe.threshold;
  if (recipe.signed_sqrt) doc["signed_sqrt"] = true;
  if (model.parameters.input && model.parameters.input->spec.active()) {
    doc["input_transform"] = describe_input_transform(model.parameters.input->spec);
  }
  if (model.state.sparsity != "none") doc["sparsity"] = model.state.sparsity;
  write_file_atomically(path, doc.dump(2) + "\n");
}

std::pair<std::string, std::string> feature_setting(const nn::FeatureRecipe& recipe,
                                                    const nn::Network& network) {
  return {"features", recipe.name + " (" + std::to_string(recipe.dim(network)) +
                          "-d: " + recipe.describe(network) + ")"};
}

}  // namespace cae::cli
