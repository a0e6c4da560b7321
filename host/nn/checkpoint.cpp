#include "checkpoint.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "io/safetensors.hpp"

namespace cae::nn {
namespace {

std::string to_text(double v) {
  nlohmann::json j = v;
  return j.dump();
}

}  // namespace

void save_checkpoint(const std::string& path, const Checkpoint& checkpoint) {
  std::vector<NamedTensor> tensors = checkpoint.parameters.tensors;
  tensors.insert(tensors.end(), checkpoint.optimizer_state.begin(), checkpoint.optimizer_state.end());
  const TrainingState& s = checkpoint.state;
  SafetensorsMetadata meta;
  meta["format"] = "cae-checkpoint-1";
  meta["architecture"] = "cae-seed-autoencoder";
  meta["epoch"] = std::to_string(s.epochs_done);
  meta["epochs_planned"] = std::to_string(s.epochs_planned);
  meta["batches_done"] = std::to_string(s.batches_done);
  meta["partial_loss_sum"] = to_text(s.partial_loss_sum);
  meta["optimizer_steps"] = std::to_string(s.optimizer_steps);
  meta["seed"] = std::to_string(s.seed);
  meta["recipe"] = s.recipe;
  meta["backend"] = s.backend;
  meta["batch_size"] = std::to_string(s.batch_size);
  meta["samples"] = std::to_string(s.samples);
  meta["optimizer"] = nlohmann::json{{"kind", s.optimizer.kind},
                                     {"learning_rate", s.optimizer.learning_rate},
                                     {"momentum", s.optimizer.momentum},
                                     {"beta1", s.optimizer.beta1},
                                     {"beta2", s.optimizer.beta2},
                                     {"epsilon", s.optimizer.epsilon},
                                     {"weight_decay", s.optimizer.weight_decay}}
                          .dump();
  meta["train_losses"] = nlohmann::json(s.train_losses).dump();
  meta["test_mses"] = nlohmann::json(s.test_mses).dump();
  write_safetensors(path, tensors, meta);
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

  const auto& m = file.metadata;
  auto get = [&m](const char* key, const std::string& fallback) {
    auto it = m.find(key);
    return it == m.end() ? fallback : it->second;
  };
  TrainingState& s = checkpoint.state;
  try {
    s.epochs_done = std::stoi(get("epoch", "0"));
    s.epochs_planned = std::stoi(get("epochs_planned", "0"));
    s.batches_done = std::stoll(get("batches_done", "0"));
    s.partial_loss_sum = std::stod(get("partial_loss_sum", "0"));
    s.optimizer_steps = std::stoll(get("optimizer_steps", "0"));
    s.seed = std::stoull(get("seed", "0"));
    s.recipe = get("recipe", "");
    s.backend = get("backend", "");
    s.batch_size = std::stoi(get("batch_size", "64"));
    s.samples = std::stoll(get("samples", "0"));
    auto opt = nlohmann::json::parse(get("optimizer", "{}"));
    s.optimizer.kind = opt.value("kind", std::string("adam"));
    s.optimizer.learning_rate = opt.value("learning_rate", 1e-3f);
    s.optimizer.momentum = opt.value("momentum", 0.0f);
    s.optimizer.beta1 = opt.value("beta1", 0.9f);
    s.optimizer.beta2 = opt.value("beta2", 0.999f);
    s.optimizer.epsilon = opt.value("epsilon", 1e-8f);
    s.optimizer.weight_decay = opt.value("weight_decay", 0.0f);
    s.train_losses = nlohmann::json::parse(get("train_losses", "[]")).get<std::vector<double>>();
    s.test_mses = nlohmann::json::parse(get("test_mses", "[]")).get<std::vector<double>>();
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": corrupt checkpoint metadata: " + e.what());
  }
  return checkpoint;
}

}  // namespace cae::nn
