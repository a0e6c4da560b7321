// The graphs (ABI 1.5) of a network, built from its description
// (nn/architecture.hpp) rather than written by hand: any network the host
// can describe gets its training step, reconstruction and encoder pass as
// data. Each graph lists exactly the op calls of Autoencoder's op-by-op
// path, in the same order on the same kinds of tensors, so a backend that
// runs the nodes one by one gives bit-identical results, and one that fuses
// them is held to the same references by cae-conformance.
#pragma once

#include <cae/backend.h>

#include <cstdint>
#include <vector>

#include "nn/architecture.hpp"

namespace cae::nn {

// The optimiser update appended to a training graph: its constant
// hyper-parameters become node attributes; the learning rate and Adam's step
// count come with each run.
struct GraphUpdate {
  enum class Kind { None, Adam, Sgd } kind = Kind::None;
  float beta1 = 0, beta2 = 0, epsilon = 0;  // Adam
  float momentum = 0;                       // SGD; 0: no velocity tensor
  float weight_decay = 0;
};

struct GraphSpec {
  std::vector<cae_graph_tensor> tensors;
  std::vector<cae_graph_node> nodes;
  // Indices into `tensors` of what the host binds; -1 where the graph has none.
  int32_t input = -1;
  int32_t target = -1;  // the loss's target when it is not the input (denoising)
  int32_t loss = -1;
  int32_t output = -1;  // the reconstruction or the latent
  // Per parameter tensor, in Autoencoder's order (weight, bias per layer).
  std::vector<int32_t> parameters;
  std::vector<int32_t> gradients;  // -1 when the gradients are internal
  std::vector<int32_t> first_state;   // Adam m, SGD velocity (empty without)
  std::vector<int32_t> second_state;  // Adam v
  // ABI 1.6: the group the all_reduce_sum nodes exchange over (none: NULL).
  cae_group group = nullptr;
  int32_t group_member = 0;
  int32_t group_members = 0;
};

// Data parallelism inside the step: every gradient is summed over the
// group's members (and scaled) by an all_reduce_sum node placed right after
// the node that finishes it, so a backend may send it while the rest of the
// backward pass runs; the update then reads the exchanged gradients.
struct GradientExchange {
  cae_group group = nullptr;  // NULL: no exchange
  int32_t member = 0;         // this context's index in the group
  int32_t members = 0;
  float scale = 1.0f;         // 1 / (the members that train this step)
};

struct TrainingGraphOptions {
  bool separate_target = false;  // a target tensor of its own (else the input)
  // Gradients bound as outputs (the host exchanges them between devices, or
  // checks them); otherwise internal to the graph.
  bool gradients_visible = true;
  GraphUpdate update;  // Kind::None: forward, loss and backward only
  GradientExchange exchange;
};

// Forward, MSE loss, backward and (optionally) the update, for `batch` images.
GraphSpec build_training_graph(const Network& network, int64_t batch,
                               const TrainingGraphOptions& options);

// The reconstruction into `output`, and its MSE against the input into
// `loss` when with_loss.
GraphSpec build_reconstruction_graph(const Network& network, int64_t batch, bool with_loss);

// The encoder into `output`: the latent.
GraphSpec build_encoder_graph(const Network& network, int64_t batch);

}  // namespace cae::nn
