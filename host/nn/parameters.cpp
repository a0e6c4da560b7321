#include "parameters.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

namespace cae::nn {

Parameters Parameters::he_normal(const Network& network, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Parameters p;
  p.network = network;
  for (const auto& layer : network.layers()) {
    // He et al. 2015: std = sqrt(2 / fan_in) keeps ReLU activations' variance.
    double fan_in = double(layer.in_channels) * layer.kernel * layer.kernel;
    std::normal_distribution<float> normal(0.0f, float(std::sqrt(2.0 / fan_in)));
    HostTensor w{layer.name + ".weight", layer.weight_shape(), {}};
    w.data.resize(size_t(layer.weight_count()));
    for (auto& v : w.data) v = normal(rng);
    HostTensor b{layer.name + ".bias", {layer.out_channels},
                 std::vector<float>(size_t(layer.out_channels), 0.0f)};
    p.tensors.push_back(std::move(w));
    p.tensors.push_back(std::move(b));
  }
  return p;
}

Parameters Parameters::from_flat(const Network& network, const std::vector<float>& flat) {
  if (int64_t(flat.size()) != network.parameter_count()) {
    throw std::runtime_error("expected " + std::to_string(network.parameter_count()) +
                             " floats for the model '" + network.description().name + "', got " +
                             std::to_string(flat.size()));
  }
  Parameters p;
  p.network = network;
  size_t offset = 0;
  for (const auto& layer : network.layers()) {
    HostTensor w{layer.name + ".weight", layer.weight_shape(), {}};
    w.data.assign(flat.begin() + offset, flat.begin() + offset + size_t(layer.weight_count()));
    offset += size_t(layer.weight_count());
    HostTensor b{layer.name + ".bias", {layer.out_channels}, {}};
    b.data.assign(flat.begin() + offset, flat.begin() + offset + size_t(layer.out_channels));
    offset += size_t(layer.out_channels);
    p.tensors.push_back(std::move(w));
    p.tensors.push_back(std::move(b));
  }
  return p;
}

std::vector<float> Parameters::flatten() const {
  std::vector<float> flat;
  flat.reserve(size_t(count()));
  for (const auto& t : tensors) flat.insert(flat.end(), t.data.begin(), t.data.end());
  return flat;
}

const HostTensor& Parameters::at(const std::string& name) const {
  for (const auto& t : tensors) {
    if (t.name == name) return t;
  }
  throw std::runtime_error("no parameter named " + name);
}

int64_t Parameters::count() const {
  int64_t n = 0;
  for (const auto& t : tensors) n += int64_t(t.data.size());
  return n;
}

void check_architecture(const Network& network, const std::vector<HostTensor>& tensors) {
  std::vector<HostTensor> expected;
  for (const auto& layer : network.layers()) {
    expected.push_back({layer.name + ".weight", layer.weight_shape(), {}});
    expected.push_back({layer.name + ".bias", {layer.out_channels}, {}});
  }
  for (const auto& t : tensors) {
    bool known = false;
    for (const auto& want : expected) known = known || t.name == want.name;
    if (!known) throw std::runtime_error("tensor " + t.name + " is not a parameter of the model");
  }
  for (const auto& want : expected) {
    const HostTensor* found = nullptr;
    for (const auto& t : tensors) {
      if (t.name == want.name) found = &t;
    }
    if (!found) throw std::runtime_error("missing tensor " + want.name);
    if (found->shape != want.shape) {
      std::string got, need;
      for (auto d : found->shape) got += (got.empty() ? "" : ",") + std::to_string(d);
      for (auto d : want.shape) need += (need.empty() ? "" : ",") + std::to_string(d);
      throw std::runtime_error("tensor " + want.name + " has shape [" + got + "], the network needs [" +
                               need + "] (a checkpoint of another architecture?)");
    }
    int64_t values = 1;
    for (int64_t d : want.shape) values *= d;
    if (int64_t(found->data.size()) != values) {
      throw std::runtime_error("tensor " + want.name + " has the wrong number of values");
    }
  }
}

}  // namespace cae::nn
