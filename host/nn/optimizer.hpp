// Optimisers over the model's device tensors, driving the backend's sgd_step /
// adam_step. Their state (momentum, Adam moments, step count) is exported for
// resumable checkpoints.
#pragma once

#include <string>
#include <vector>

#include "nn/graph_builder.hpp"
#include "nn/parameters.hpp"
#include "plugin/context.hpp"

namespace cae::nn {

// The accepted ranges, shared by the command line and checkpoint loading.
inline constexpr float kMinLearningRate = 1e-9f;
inline constexpr float kMaxLearningRate = 10.0f;
inline constexpr float kMaxMomentum = 0.999f;
inline constexpr float kMaxWeightDecay = 1.0f;

struct OptimizerSettings {
  std::string kind = "adam";  // "adam" or "sgd"
  float learning_rate = 1e-3f;
  float momentum = 0.0f;  // sgd only; 0 = plain SGD (the seed's)
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float epsilon = 1e-8f;
  float weight_decay = 0.0f;
};

class Optimizer {
 public:
  Optimizer(Context& context, const std::vector<Tensor>& parameters,
            const std::vector<std::string>& names, OptimizerSettings settings);

  void step(std::vector<Tensor>& parameters, const std::vector<Tensor>& gradients);

  // For a graph that runs the update itself (ABI 1.5): the update's node
  // attributes, its state tensors (empty where it has none), and the scalars
  // of the next step, counting it as taken like step() does.
  GraphUpdate graph_update() const;
  std::vector<Tensor>& first_state() { return first_; }
  std::vector<Tensor>& second_state() { return second_; }
  cae_graph_run_params take_graph_step();

  const OptimizerSettings& settings() const { return settings_; }
  // The rate of the next steps (a schedule's; settings().learning_rate is the base).
  void set_learning_rate(float rate) { rate_ = rate; }
  int64_t steps_taken() const { return steps_; }

  // "optimizer.<param>.m" / ".v" (adam) or ".velocity" (sgd with momentum).
  std::vector<HostTensor> export_state() const;
  void import_state(const std::vector<HostTensor>& state, int64_t steps_taken);

 private:
  Context& context_;
  OptimizerSettings settings_;
  std::vector<std::string> names_;
  std::vector<Tensor> first_;   // adam m, or sgd velocity
  std::vector<Tensor> second_;  // adam v
  int32_t next_step_number();
  int64_t steps_ = 0;
  float rate_;
};

}  // namespace cae::nn
