#include "checkpoint.hpp"

#include <stdexcept>

#include "io/safetensors.hpp"
#include "nn/checkpoint_metadata.hpp"
#include "nn/model_metadata.hpp"

namespace cae::nn {

namespace {

// The optimiser state a resumed run will upload: every tensor the optimizer
// named in the metadata needs, shaped like its parameter, and Adam's second
// moments not negative (their square root would be NaN at the next step).
void check_optimizer_state(const Checkpoint& checkpoint, const std::string& path) {
  if (checkpoint.optimizer_state.empty()) return;  // weights only: a fresh optimiser
  const OptimizerSettings& settings = checkpoint.state.optimizer;
  std::vector<std::string> suffixes;
  if (settings.kind == "adam") suffixes = {".m", ".v"};
  if (settings.kind == "sgd" && settings.momentum > 0.0f) suffixes = {".velocity"};
  for (const HostTensor& parameter : checkpoint.parameters.tensors) {
    for (const std::string& suffix : suffixes) {
      const std::string name = "optimizer." + parameter.name + suffix;
      const HostTensor* state = nullptr;
      for (const HostTensor& t : checkpoint.optimizer_state) {
        if (t.name == name) state = &t;
      }
      if (!state) {
        throw std::runtime_error(path + ": lacks optimizer state '" + name + "' that its " +
                                 settings.kind + " optimizer needs");
      }
      if (state->shape != parameter.shape) {
        throw std::runtime_error(path + ": optimizer state '" + name +
                                 "' is not shaped like its parameter");
      }
      if (suffix == ".v") {
        for (size_t i = 0; i < state->data.size(); ++i) {
          if (state->data[i] < 0.0f) {
            throw std::runtime_error(path + ": optimizer state '" + name +
                                     "' holds a negative second moment at index " +
                                     std::to_string(i));
          }
        }
      }
    }
  }
}

}  // namespace

void save_checkpoint(const std::string& path, const Checkpoint& checkpoint) {
  std::vector<NamedTensor> tensors = checkpoint.parameters.tensors;
  tensors.insert(tensors.end(), checkpoint.optimizer_state.begin(), checkpoint.optimizer_state.end());
  SafetensorsMetadata metadata = training_state_metadata(checkpoint.state);
  add_model_metadata(checkpoint.parameters.network, metadata);
  if (const InputTransform* input = checkpoint.parameters.input.get(); input && input->spec.active()) {
    metadata["format"] = kCheckpointFormatWithInput;
    input->add_metadata(metadata);
    for (NamedTensor& t : input->tensors()) tensors.push_back(std::move(t));
  }
  write_safetensors(path, tensors, metadata);
}

Checkpoint load_checkpoint(const std::string& path) {
  SafetensorsFile file = read_safetensors(path);
  Checkpoint checkpoint;
  checkpoint.parameters.network = parse_model_metadata(file.metadata, path);
  // Format 2 alone may carry an input transform (and must): the "input."
  // tensors are taken out before the parameters are checked.
  const auto format = file.metadata.find("format");
  const bool with_input =
      format != file.metadata.end() && format->second == kCheckpointFormatWithInput;
  SafetensorsMetadata transform_fields;
  if (with_input) transform_fields = file.metadata;
  InputTransform input = read_input_transform(
      transform_fields, file.tensors, size_t(checkpoint.parameters.network.image_floats()), path);
  if (with_input && !input.spec.active()) {
    throw std::runtime_error(path + ": checkpoint format " + kCheckpointFormatWithInput +
                             " without an input transform (metadata 'whiten' or "
                             "'contrast_normalize')");
  }
  if (input.spec.active()) {
    checkpoint.parameters.input = std::make_shared<const InputTransform>(std::move(input));
  }
  for (auto& t : file.tensors) {
    if (t.name.rfind("optimizer.", 0) == 0) {
      checkpoint.optimizer_state.push_back(std::move(t));
    } else {
      checkpoint.parameters.tensors.push_back(std::move(t));
    }
  }
  try {
    check_architecture(checkpoint.parameters.network, checkpoint.parameters.tensors);
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": not a checkpoint of its model '" +
                             checkpoint.parameters.network.description().name + "': " + e.what());
  }
  // Keep the network's order whatever the file's order was.
  Parameters ordered;
  ordered.network = checkpoint.parameters.network;
  ordered.input = checkpoint.parameters.input;
  for (const auto& layer : ordered.network.layers()) {
    for (const char* suffix : {".weight", ".bias"}) {
      ordered.tensors.push_back(checkpoint.parameters.at(layer.name + suffix));
    }
  }
  checkpoint.parameters = std::move(ordered);

  checkpoint.state = parse_training_state(file.metadata, path);
  check_optimizer_state(checkpoint, path);
  return checkpoint;
}

}  // namespace cae::nn
