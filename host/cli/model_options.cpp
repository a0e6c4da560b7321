#include "model_options.hpp"

#include <cstdio>
#include <ostream>

#include "io/memory_budget.hpp"
#include "nn/model_description.hpp"
#include "path_options.hpp"

namespace cae::cli {

void add_model_option(po::options_description& options) {
  options.add_options()
      ("model", path_value("--model")->default_value("seed")->value_name("NAME|FILE.json"),
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

namespace {

// The least a network takes to train or run, whatever --batch: its
// parameters and their gradients, and one image's activations (each layer's
// output and, after a pool or upsample, that too) with their gradients.
// Counted in double, so a description of terabytes does not wrap.
uint64_t smallest_training_bytes(const nn::Network& network) {
  double values = 2.0 * double(network.parameter_count());
  double activations = double(network.image_floats());
  for (const nn::ConvLayer& layer : network.layers()) {
    const double maps = double(layer.out_channels);
    activations += maps * double(layer.size) * double(layer.size);
    if (layer.after != nn::After::Nothing) {
      activations += maps * double(layer.output_size()) * double(layer.output_size());
    }
  }
  values += 2.0 * activations;
  const double bytes = values * double(sizeof(float));
  return bytes >= 1.8e19 ? UINT64_MAX : uint64_t(bytes);
}

std::string network_needs(const nn::Network& network) {
  return "--model " + network.description().name + ": even at --batch 1, the network (" +
         std::to_string(network.parameter_count()) +
         " parameters) with its gradients and one image's activations";
}

}  // namespace

nn::Network bind_model(const nn::ModelDescription& description, int image_channels,
                       int image_side) {
  try {
    nn::Network network(description, image_channels, image_side);
    // Before anything is allocated: a model the machine cannot hold is the
    // model's fault, and --batch or --samples cannot help.
    require_host_memory(smallest_training_bytes(network), network_needs(network));
    return network;
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--model: ") + e.what());
  } catch (const MemoryRefused& e) {
    throw UsageError(e.what());
  }
}

void require_model_fits_device(const nn::Network& network, const DeviceInfo& device) {
  try {
    require_device_memory(smallest_training_bytes(network), device.memory_total_bytes, device.name,
                          network_needs(network));
  } catch (const MemoryRefused& e) {
    throw UsageError(e.what());
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
