#include "optimizer.hpp"

#include <limits>
#include <stdexcept>

namespace cae::nn {

Optimizer::Optimizer(Context& context, const std::vector<Tensor>& parameters,
                     const std::vector<std::string>& names, OptimizerSettings settings)
    : context_(context), settings_(std::move(settings)), names_(names),
      rate_(settings_.learning_rate) {
  if (settings_.kind != "adam" && settings_.kind != "sgd") {
    throw std::invalid_argument("unknown optimizer '" + settings_.kind + "' (adam or sgd)");
  }
  bool needs_first = settings_.kind == "adam" || settings_.momentum > 0.0f;
  for (const auto& p : parameters) {
    std::vector<float> zeros(size_t(p.count()), 0.0f);
    if (needs_first) {
      first_.push_back(context_.alloc(p.dims()));
      first_.back().upload(zeros);
    }
    if (settings_.kind == "adam") {
      second_.push_back(context_.alloc(p.dims()));
      second_.back().upload(zeros);
    }
  }
}

int32_t Optimizer::next_step_number() {
  ++steps_;
  // Past ~2^31 steps the bias correction is 1 anyway.
  return int32_t(steps_ < std::numeric_limits<int32_t>::max() ? steps_
                                                               : std::numeric_limits<int32_t>::max());
}

GraphUpdate Optimizer::graph_update() const {
  GraphUpdate u;
  u.kind = settings_.kind == "adam" ? GraphUpdate::Kind::Adam : GraphUpdate::Kind::Sgd;
  u.beta1 = settings_.beta1;
  u.beta2 = settings_.beta2;
  u.epsilon = settings_.epsilon;
  u.momentum = settings_.momentum;
  u.weight_decay = settings_.weight_decay;
  return u;
}

cae_graph_run_params Optimizer::take_graph_step() {
  cae_graph_run_params params{};
  params.struct_size = sizeof params;
  params.adam_step = next_step_number();
  params.learning_rate = rate_;
  return params;
}

void Optimizer::step(std::vector<Tensor>& parameters, const std::vector<Tensor>& gradients) {
  const int32_t step_number = next_step_number();
  if (settings_.kind == "adam") {
    cae_adam_params hp{rate_,           settings_.beta1,        settings_.beta2,
                       settings_.epsilon, settings_.weight_decay, step_number};
    for (size_t i = 0; i < parameters.size(); ++i) {
      context_.adam_step(parameters[i], gradients[i], first_[i], second_[i], hp);
    }
  } else {
    for (size_t i = 0; i < parameters.size(); ++i) {
      context_.sgd_step(parameters[i], gradients[i], first_.empty() ? nullptr : &first_[i],
                        rate_, settings_.momentum, settings_.weight_decay);
    }
  }
}

std::vector<HostTensor> Optimizer::export_state() const {
  std::vector<HostTensor> state;
  const char* first_name = settings_.kind == "adam" ? ".m" : ".velocity";
  for (size_t i = 0; i < first_.size(); ++i) {
    state.push_back({"optimizer." + names_[i] + first_name, first_[i].dims(), first_[i].download()});
  }
  for (size_t i = 0; i < second_.size(); ++i) {
    state.push_back({"optimizer." + names_[i] + ".v", second_[i].dims(), second_[i].download()});
  }
  return state;
}

void Optimizer::import_state(const std::vector<HostTensor>& state, int64_t steps_taken) {
  auto load = [&state](const std::string& name, Tensor& into) {
    for (const auto& t : state) {
      if (t.name == name) {
        if (int64_t(t.data.size()) != into.count()) {
          throw std::runtime_error("optimizer state " + name + " has the wrong size");
        }
        into.upload(t.data);
        return;
      }
    }
    throw std::runtime_error("checkpoint lacks optimizer state " + name +
                             " (was it written with another optimizer?)");
  };
  const char* first_name = settings_.kind == "adam" ? ".m" : ".velocity";
  for (size_t i = 0; i < first_.size(); ++i) load("optimizer." + names_[i] + first_name, first_[i]);
  for (size_t i = 0; i < second_.size(); ++i) load("optimizer." + names_[i] + ".v", second_[i]);
  steps_ = steps_taken;
}

}  // namespace cae::nn
