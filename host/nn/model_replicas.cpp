#include "nn/model_replicas.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "data/augment.hpp"
#include "nn/architecture.hpp"
#include "plugin/per_device.hpp"

namespace cae::nn {

struct ModelReplicas::Replica {
  Replica(Context& c, const Parameters& parameters, const OptimizerSettings& settings,
          int64_t shard, Execution execution)
      : context(&c),
        model(std::make_unique<Autoencoder>(c, parameters, execution)),
        optimizer(std::make_unique<Optimizer>(c, model->parameters(), model->parameter_names(),
                                              settings)),
        losses(c, 64),
        shard_input(c.alloc(parameters.network.image_dims(shard))),
        scalar(c.alloc({1})) {}

  Tensor& input_for(int64_t rows) { return buffer_for(rows, shard_input, tail_input); }
  // Denoising targets: allocated only when a step has them.
  Tensor& target_for(int64_t rows) {
    if (!shard_target) shard_target = context->alloc(shard_input.dims());
    return buffer_for(rows, shard_target, tail_target);
  }

  // What one step trains this replica on: shard `index` (of `rows` images)
  // of the batch uploaded, its targets when given, and the loss slot.
  struct Shard {
    Tensor* input;
    Tensor* target;
    Tensor* loss;
  };
  Shard take_shard(const float* images, const float* targets, const StepNoise* noise, int64_t index,
                   int64_t rows) {
    const size_t image_floats = size_t(model->network().image_floats());
    const size_t offset = size_t(index) * size_t(rows) * image_floats;
    const size_t values = size_t(rows) * image_floats;
    Shard shard{&input_for(rows), nullptr, nullptr};
    if (noise) {
      // The clean shard is the target; the input is it plus the shard's
      // draws of the batch's stream (offset: where the shard starts in it).
      shard.target = &target_for(rows);
      shard.target->upload(images + offset, values);
      if (context->has_add_normal_noise()) {
        context->add_normal_noise(*shard.target, *shard.input, noise->sigma, noise->stream, offset);
      } else {
        noisy.assign(images + offset, images + offset + values);
        add_input_noise(noisy.data(), values, noise->sigma, noise->stream, offset);
        shard.input->upload(noisy.data(), values);
      }
    } else {
      shard.input->upload(images + offset, values);
      if (targets) {
        shard.target = &target_for(rows);
        shard.target->upload(targets + offset, values);
      }
    }
    shard.loss = &losses.next_slot(rows);
    return shard;
  }

  // `full` when it holds `rows` images, else `tail`, (re)allocated for them.
  Tensor& buffer_for(int64_t rows, Tensor& full, Tensor& tail) {
    if (rows == full.dims()[0]) return full;
    if (!tail || tail.dims()[0] != rows) {
      tail = context->alloc(model->network().image_dims(rows));
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
  Tensor scalar;       // one float exchanged across processes: the stop flag, the loss sum
  std::vector<float> noisy;  // a shard's noisy input, where the backend does not add noise
};

ModelReplicas::ModelReplicas(const std::vector<Context*>& contexts, const Parameters& parameters,
                             const OptimizerSettings& settings, int batch_size,
                             bool force_host_exchange, ProcessGroup* processes,
                             Execution execution)
    : processes_(processes) {
  const int64_t devices = int64_t(contexts.size());
  if (devices < 1) throw std::invalid_argument("training needs at least one device");
  if (processes && devices != 1) {
    throw std::invalid_argument("a rank of a group of processes trains on one device, not " +
                                std::to_string(devices));
  }
  shards_ = processes ? processes->world() : devices;
  first_shard_ = processes ? processes->rank() : 0;
  const char* holder = processes ? "process" : "device";
  if (batch_size < 1 || batch_size % shards_ != 0) {
    throw std::invalid_argument("the batch of " + std::to_string(batch_size) +
                                " images cannot be split into " + std::to_string(shards_) +
                                " equal shards, one per " + holder +
                                ": use a --batch divisible by " + std::to_string(shards_));
  }
  shard_size_ = batch_size / shards_;
  for (Context* context : contexts) {
    replicas_.push_back(std::make_unique<Replica>(*context, parameters, settings, shard_size_, execution));
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

void ModelReplicas::set_learning_rate(float rate) {
  for (auto& replica : replicas_) replica->optimizer->set_learning_rate(rate);
}

void ModelReplicas::set_sparsity(const Sparsity& sparsity) {
  for (auto& replica : replicas_) replica->model->set_sparsity(sparsity);
}

void ModelReplicas::zero_gradients(Replica& replica) {
  for (Tensor& gradient : replica.model->gradients()) {
    gradient.upload(std::vector<float>(size_t(gradient.count()), 0.0f));
  }
}

bool ModelReplicas::train_step(const float* images, int64_t count, const float* targets,
                               bool stop_requested) {
  return step(images, count, targets, nullptr, stop_requested);
}

bool ModelReplicas::train_step(const float* images, int64_t count, const StepNoise& noise,
                               bool stop_requested) {
  return step(images, count, nullptr, &noise, stop_requested);
}

bool ModelReplicas::step(const float* images, int64_t count, const float* targets,
                         const StepNoise* noise, bool stop_requested) {
  const size_t devices = replicas_.size();
  // The most shards (devices, or ranks) that split `count` equally: all of
  // them for a full batch; for the last batch maybe fewer (then the rest add
  // zeros). Every rank computes the same from the same count.
  int64_t active = std::min(shards_, count);
  while (count % active != 0) --active;
  const int64_t shard = count / active;
  // Alone (no exchange between backward and update), the whole step may be
  // one graph.
  const bool alone = !processes_ && !group_;
  bool updated = false;
  // Each shard's gradient is the mean over its shard: their mean over the
  // active devices is the gradient of the whole batch's mean loss.
  last_step_exchanged_in_graph_ =
      !processes_ && group_ && group_->handle() != nullptr && active == int64_t(devices) &&
      exchanged_step(images, targets, noise, shard, 1.0f / float(active));
  if (last_step_exchanged_in_graph_) return stop_requested;

  run_per_device(devices, [&](size_t r) {
    Replica& replica = *replicas_[r];
    const int64_t index = first_shard_ + int64_t(r);
    if (index >= active) {
      zero_gradients(replica);
      return;
    }
    const Replica::Shard mine = replica.take_shard(images, targets, noise, index, shard);
    Tensor& input = *mine.input;
    Tensor* target = mine.target;
    Tensor& loss = *mine.loss;
    if (alone && replica.model->train_step(input, loss, target, *replica.optimizer)) {
      updated = true;
      return;
    }
    replica.model->forward_backward(input, loss, target);
  });
  if (updated) return stop_requested;
  if (processes_) {
    const bool stop = exchange_across_processes(1.0f / float(active), stop_requested);
    Replica& replica = *replicas_[0];
    replica.optimizer->step(replica.model->parameters(), replica.model->gradients());
    return stop;
  }
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
  return stop_requested;
}

bool ModelReplicas::exchanged_step(const float* images, const float* targets,
                                   const StepNoise* noise, int64_t shard, float scale) {
  const size_t devices = replicas_.size();
  auto exchange_of = [&](size_t r) {
    return GradientExchange{group_->handle(), int32_t(r), int32_t(devices), scale};
  };
  auto known = exchanges_in_graph_.find(shard);
  if (known == exchanges_in_graph_.end()) {
    // Compiled on every device first: the exchange runs only when all of
    // them have the graph (a member alone would wait at its first exchange).
    std::vector<char> compiled(devices, 0);
    run_per_device(devices, [&](size_t r) {
      Replica& replica = *replicas_[r];
      compiled[r] = replica.model->prepare_exchanged_step(shard, targets || noise,
                                                          *replica.optimizer, exchange_of(r));
    });
    const bool all = std::all_of(compiled.begin(), compiled.end(), [](char c) { return c != 0; });
    known = exchanges_in_graph_.emplace(shard, all).first;
  }
  if (!known->second) return false;
  // The uploads before any run: a device that fails to upload must not leave
  // the others waiting at an exchange.
  std::vector<Replica::Shard> shards(devices);
  run_per_device(devices, [&](size_t r) {
    shards[r] = replicas_[r]->take_shard(images, targets, noise, int64_t(r), shard);
  });
  run_per_device(devices, [&](size_t r) {
    Replica& replica = *replicas_[r];
    replica.model->exchanged_step(*shards[r].input, *shards[r].loss, shards[r].target,
                                  *replica.optimizer, exchange_of(r));
  });
  return true;
}

// Every gradient and the stop flag in one fused exchange: the flag's sum,
// scaled like the gradients, is positive when any rank asked to stop.
bool ModelReplicas::exchange_across_processes(float scale, bool stop_requested) {
  Replica& replica = *replicas_[0];
  const float flag = stop_requested ? 1.0f : 0.0f;
  replica.scalar.upload(&flag, 1);
  std::vector<Tensor*> list;
  for (Tensor& g : replica.model->gradients()) list.push_back(&g);
  list.push_back(&replica.scalar);
  processes_->all_reduce_sum(list, scale);
  float any = 0;
  replica.scalar.download(&any, 1);
  return any > 0;
}

double ModelReplicas::drain_loss_sum() {
  double sum = 0;
  for (auto& replica : replicas_) sum += replica->losses.drain();
  if (!processes_) return sum;
  // float on the wire: the sum is for the log, the weights never see it.
  Replica& replica = *replicas_[0];
  const float mine = float(sum);
  replica.scalar.upload(&mine, 1);
  processes_->all_reduce_sum({&replica.scalar}, 1.0f);
  float all = 0;
  replica.scalar.download(&all, 1);
  return double(all);
}

void ModelReplicas::reset_loss_sum(double sum) {
  // The sum so far (of all devices, and all ranks) is held once: by shard 0.
  for (size_t r = 0; r < replicas_.size(); ++r) {
    replicas_[r]->losses.reset(first_shard_ + int64_t(r) == 0 ? sum : 0.0);
  }
}

}  // namespace cae::nn
