// Data-parallel training over N contexts (one per device): a replica of the
// model and of its optimiser on each. A step splits the global batch into N
// equal shards, runs forward/backward of each shard on its device (one thread
// per device), sums ALL gradients across the devices in one fused exchange
// scaled to the mean, and applies the same optimiser step everywhere, so the
// replicas stay identical and the result does not depend on N (up to the
// backend's rounding). With one context it is the plain single-device step,
// the whole of it one graph where the backend compiles graphs; with several,
// each device's forward and backward may be a graph, and the exchange and
// the update run op by op between them.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "nn/autoencoder.hpp"
#include "nn/loss_accumulator.hpp"
#include "nn/optimizer.hpp"
#include "plugin/device_group.hpp"
#include "plugin/process_group.hpp"

namespace cae::nn {

// One step's denoising noise: sigma and the batch's stream of the ABI's
// normal draws (cae::input_noise_stream).
struct StepNoise {
  float sigma = 0;
  uint64_t stream = 0;
};

class ModelReplicas {
 public:
  // Throws std::invalid_argument when batch_size is not a multiple of the
  // number of contexts. force_host_exchange: see DeviceGroup (tests).
  // processes: this process is one rank of a group of processes, each with
  // ONE context (contexts.size() == 1); batch_size is then the global batch
  // of all ranks, and rank r trains on shard r of it (docs/distributed.md).
  ModelReplicas(const std::vector<Context*>& contexts, const Parameters& parameters,
                const OptimizerSettings& settings, int batch_size,
                bool force_host_exchange = false, ProcessGroup* processes = nullptr,
                Execution execution = Execution::Auto);
  ~ModelReplicas();

  size_t size() const { return replicas_.size(); }
  // Replica 0: checkpoints, evaluation.
  Context& primary_context();
  Autoencoder& primary_model();
  Optimizer& primary_optimizer();
  bool backend_collectives() const {
    return processes_ ? processes_->backend_collectives()
                      : group_ && group_->backend_collectives();
  }
  bool distributed() const { return processes_ != nullptr; }
  // Whether the last step ran on every device as one graph with the
  // gradients exchanged inside it (ABI 1.6), not exchanged by the host.
  bool last_step_exchanged_in_graph() const { return last_step_exchanged_in_graph_; }

  void import_optimizer_state(const std::vector<HostTensor>& state, int64_t steps_taken);
  // Every replica's optimiser takes its next steps at this rate.
  void set_learning_rate(float rate);
  // The sparse codes on every replica (Autoencoder::set_sparsity).
  void set_sparsity(const Sparsity& sparsity);

  // One optimiser step on `count` images (host NCHW floats, count * the
  // network's image_floats());
  // with `targets` (as many floats) the loss compares the reconstruction with
  // them instead of with the input (denoising).
  // A count of at most batch_size that N does not divide (the epoch's last
  // batch) runs on the largest number of devices that divides it; the
  // others contribute zero gradients.
  // targets: denoising targets (the clean images) when the input is noisy, else nullptr.
  // stop_requested: this process wants to stop after this step (a signal).
  // Returns whether to stop: with a group of processes, whether ANY rank
  // asked (the flag travels in the step's exchange, so every rank stops
  // after the same step); else stop_requested itself.
  bool train_step(const float* images, int64_t count, const float* targets = nullptr,
                  bool stop_requested = false);
  // The same for denoising: `images` (clean) are the targets, and the input
  // is them plus `noise` (every device drawing its shard's values of the
  // whole batch's stream), added where the batch is when the backend can
  // (ABI 1.12's add_normal_noise), else on the host before the upload.
  bool train_step(const float* images, int64_t count, const StepNoise& noise,
                  bool stop_requested = false);

  // sum(loss * images) over the steps since reset, in replica order; with a
  // group of processes, over every rank (a collective: every rank calls it).
  double drain_loss_sum();
  void reset_loss_sum(double sum);

 private:
  struct Replica;
  void zero_gradients(Replica& replica);
  bool exchange_across_processes(float scale, bool stop_requested);
  bool step(const float* images, int64_t count, const float* targets, const StepNoise* noise,
            bool stop_requested);
  // Every device's whole step as one graph, the gradients summed inside it
  // (ABI 1.6), when the backend runs the exchange as graph nodes: false
  // (nothing done) when it leaves the exchange to the host. Every device
  // trains a shard of `shard` images.
  bool exchanged_step(const float* images, const float* targets, const StepNoise* noise,
                      int64_t shard, float scale);

  // Declared before the replicas, so destroyed after them: a step graph
  // that exchanges over the group (ABI 1.6) must go before its group (a
  // backend's communicators may wait for the recorded exchanges to go).
  std::unique_ptr<DeviceGroup> group_;
  std::vector<std::unique_ptr<Replica>> replicas_;
  ProcessGroup* processes_ = nullptr;
  int64_t shard_size_ = 0;
  int64_t shards_ = 1;       // shards of a global batch: devices here, or ranks
  int64_t first_shard_ = 0;  // replica 0's shard: this process's rank
  // Per shard size: whether every device compiled the exchanged step.
  std::map<int64_t, bool> exchanges_in_graph_;
  bool last_step_exchanged_in_graph_ = false;
};

}  // namespace cae::nn
