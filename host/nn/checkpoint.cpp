#include "checkpoint.hpp"

#include <stdexcept>

#include "io/safetensors.hpp"
#include "nn/checkpoint_metadata.hpp"

namespace cae::nn {

void save_checkpoint(const std::string& path, const Checkpoint& checkpoint) {
  std::vector<NamedTensor> tensors = checkpoint.parameters.tensors;
  tensors.insert(tensors.end(), checkpoint.optimizer_state.begin(), checkpoint.optimizer_state.end());
  write_safetensors(path, tensors, training_state_metadata(checkpoint.state));
}

Checkpoint load_checkpoint(const std::string& path) {
  SafetensorsFile file = read_safetensors(path);
  Checkpoint checkpoint;
  for (auto& t : file.tensors) {
    if (t.name.rfind("optimizer.", 0) == 0) {
      checkpoint.optimizer_state.push_back(std::move(t));
    } else {
      checkpoint.parameters.tensors.push_back(std::move(t));
    }
  }
  try {
    check_architecture(checkpoint.parameters.tensors);
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": not a checkpoint of this network: " + e.what());
  }
  // Keep the architecture's order whatever the file's order was.
  Parameters ordered;
  for (const auto& want : Parameters::he_normal(0).tensors) {
    ordered.tensors.push_back(checkpoint.parameters.at(want.name));
  }
  checkpoint.parameters = std::move(ordered);

  checkpoint.state = parse_training_state(file.metadata, path);
  return checkpoint;
}

}  // namespace cae::nn
