#include "nn/model_replicas.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "nn/architecture.hpp"
#include "plugin/per_device.hpp"

namespace cae::nn {

struct ModelReplicas::Replica {
  Replica(Context& c, const Parameters& parameters, const OptimizerSettings& settings,
          int64_t shard)
      : context(&c),
        model(std::make_unique<Autoencoder>(c, parameters)),
        optimizer(std::make_unique<Optimizer>(c, model->parameters(), model->parameter_names(),
                                              settings)),
        losses(c, 64),
        shard_input(c.alloc({shard, kImageChannels, kImageSize, kImageSize})) {}

  Tensor& input_for(int64_t rows) { return buffer_for(rows, shard_input, tail_input); }
  // Denoising targets: allocated only when a step has them.
  Tensor& target_for(int64_t rows) {
    if (!shard_target) shard_target = context->alloc(shard_input.dims());
    return buffer_for(rows, shard_target, tail_target);
  }

  // `full` when it holds `rows` images, else `tail`, (re)allocated for them.
  Tensor& buffer_for(int64_t rows, Tensor& full, Tensor& tail) {
    if (rows == full.dims()[0]) return full;
    if (!tail || tail.dims()[0] != rows) {
      tail = context->alloc({rows, kImageChannels, kImageSize, kImageSize});
    }
    return tail;
  }

  Context* context;
  std::unique_ptr<Autoencoder> model;
  std::unique_ptr<Optimizer> optimizer;
  LossAccumulator losses;
  Tensor shard_input;
  Tensor tail_input;  // the epoch's partial last batch, allocated when first needed
  Tensor shard_target;
  Tensor tail_target;
};

ModelReplicas::ModelReplicas(const std::vector<Context*>& contexts, const Parameters& parameters,
                             const OptimizerSettings& settings, int batch_size,
                             bool force_host_exchange) {
  const int64_t devices = int64_t(contexts.size());
  if (devices < 1) throw std::invalid_argument("training needs at least one device");
  if (batch_size < 1 || batch_size % devices != 0) {
    throw std::invalid_argument("the batch of " + std::to_string(batch_size) +
                                " images cannot be split into " + std::to_string(devices) +
                                " equal shards, one per device: use a --batch divisible by " +
                                std::to_string(devices));
  }
  shard_size_ = batch_size / devices;
  for (Context* context : contexts) {
    replicas_.push_back(std::make_unique<Replica>(*context, parameters, settings, shard_size_));
  }
  if (devices > 1) group_ = std::make_unique<DeviceGroup>(contexts, force_host_exchange);
}

ModelReplicas::~ModelReplicas() = default;

Context& ModelReplicas::primary_context() { return *replicas_[0]->context; }
Autoencoder& ModelReplicas::primary_model() { return *replicas_[0]->model; }
Optimizer& ModelReplicas::primary_optimizer() { return *replicas_[0]->optimizer; }

void ModelReplicas::import_optimizer_state(const std::vector<HostTensor>& state,
                                           int64_t steps_taken) {
  for (auto& replica : replicas_) replica->optimizer->import_state(state, steps_taken);
}

void ModelReplicas::zero_gradients(Replica& replica) {
  for (Tensor& gradient : replica.model->gradients()) {
    gradient.upload(std::vector<float>(size_t(gradient.count()), 0.0f));
  }
}

void ModelReplicas::train_step(const float* images, int64_t count, const float* targets) {
  const size_t devices = replicas_.size();
  // The most devices that split `count` into equal shards: all of them for a
  // full batch; for the last batch maybe fewer (then the rest add zeros).
  size_t active = std::min(devices, size_t(count));
  while (count % int64_t(active) != 0) --active;
  const int64_t shard = count / int64_t(active);

  run_per_device(devices, [&](size_t r) {
    Replica& replica = *replicas_[r];
    if (r >= active) {
      zero_gradients(replica);
      return;
    }
    Tensor& input = replica.input_for(shard);
    const size_t offset = size_t(r) * size_t(shard) * kImageFloats;
    input.upload(images + offset, size_t(shard) * kImageFloats);
    Tensor* target = nullptr;
    if (targets) {
      target = &replica.target_for(shard);
      target->upload(targets + offset, size_t(shard) * kImageFloats);
    }
    replica.model->forward_backward(input, replica.losses.next_slot(shard), target);
  });
  if (group_) {
    std::vector<std::vector<Tensor*>> gradients;
    for (auto& replica : replicas_) {
      gradients.emplace_back();
      for (Tensor& g : replica->model->gradients()) gradients.back().push_back(&g);
    }
    // Each shard's gradient is the mean over its shard: their mean over the
    // active devices is the gradient of the whole batch's mean loss.
    group_->all_reduce_sum(gradients, 1.0f / float(active));
  }
  run_per_device(devices, [&](size_t r) {
    Replica& replica = *replicas_[r];
    replica.optimizer->step(replica.model->parameters(), replica.model->gradients());
  });
}

double ModelReplicas::drain_loss_sum() {
  double sum = 0;
  for (auto& replica : replicas_) sum += replica->losses.drain();
  return sum;
}

void ModelReplicas::reset_loss_sum(double sum) {
  for (size_t r = 0; r < replicas_.size(); ++r) replicas_[r]->losses.reset(r == 0 ? sum : 0.0);
}

}  // namespace cae::nn
