#include "model_options.hpp"

#include <cstdio>
#include <ostream>

#include "nn/model_description.hpp"

namespace cae::cli {

void add_model_option(po::options_description& options) {
  options.add_options()
      ("model", po::value<std::string>()->default_value("seed")->value_name("NAME|FILE.json"),
       ("the network: a preset or a JSON description (docs/models.md); the input's channels "
        "and size follow the data. Presets:" + nn::model_preset_help()).c_str());
}

nn::ModelDescription model_description_from(const po::variables_map& vm) {
  const std::string name = vm["model"].as<std::string>();
  try {
    return nn::resolve_model(name);
  } catch (const std::invalid_argument& e) {
    const std::string text = e.what();
    throw UsageError(text.rfind("--model", 0) == 0 ? text : "--model: " + text);
  }
}

nn::Network bind_model(const nn::ModelDescription& description, int image_channels,
                       int image_side) {
  try {
    return nn::Network(description, image_channels, image_side);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--model: ") + e.what());
  }
}

void reject_model_with(const po::variables_map& vm, const char* option) {
  if (vm.count("model") && !vm["model"].defaulted()) {
    throw UsageError(std::string("--model cannot be combined with ") + option +
                     ": the checkpoint records its own model");
  }
}

void print_network(const nn::Network& network, std::ostream& out) {
  const auto& layers = network.layers();
  out << "model:         " << network.description().name << " on " << network.image_channels()
      << "x" << network.image_side() << "x" << network.image_side() << " images\n";
  for (size_t i = 0; i < layers.size(); ++i) {
    const nn::ConvLayer& l = layers[i];
    char line[200];
    std::snprintf(line, sizeof line, "  %-14s %4d -> %-4d %2dx%-2d kernel  %3dx%-3d -> %3dx%-3d %s%s\n",
                  l.name.c_str(), l.in_channels, l.out_channels, l.kernel, l.kernel, l.size, l.size,
                  l.output_size(), l.output_size(), l.relu ? "ReLU" : "    ",
                  l.after == nn::After::MaxPool    ? " max-pool"
                  : l.after == nn::After::Upsample ? " upsample"
                                                   : "");
    out << line;
  }
  char totals[200];
  std::snprintf(totals, sizeof totals,
                "parameters:    %lld\nFLOPs/image:   %.3f G forward, %.3f G training step\n",
                static_cast<long long>(network.parameter_count()),
                network.forward_flops_per_image() / 1e9, 3 * network.forward_flops_per_image() / 1e9);
  out << totals << "latent:        " << network.latent_channels() << "x" << network.latent_size()
      << "x" << network.latent_size() << " (feature dim " << network.feature_dim() << ")\n";
}

}  // namespace cae::cli
