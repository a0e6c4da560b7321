#include "parameters.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

#include "architecture.hpp"

namespace cae::nn {
namespace {

std::vector<int64_t> weight_shape(const ConvLayer& l) {
  return {l.out_channels, l.in_channels, kKernel, kKernel};
}

}  // namespace

Parameters Parameters::he_normal(uint64_t seed) {
  std::mt19937_64 rng(seed);
  Parameters p;
  for (const auto& layer : kLayers) {
    // He et al. 2015: std = sqrt(2 / fan_in) keeps ReLU activations' variance.
    double fan_in = double(layer.in_channels) * kKernel * kKernel;
    std::normal_distribution<float> normal(0.0f, float(std::sqrt(2.0 / fan_in)));
    HostTensor w{std::string(layer.name) + ".weight", weight_shape(layer), {}};
    w.data.resize(size_t(layer.weight_count()));
    for (auto& v : w.data) v = normal(rng);
    HostTensor b{std::string(layer.name) + ".bias", {layer.out_channels},
                 std::vector<float>(size_t(layer.out_channels), 0.0f)};
    p.tensors.push_back(std::move(w));
    p.tensors.push_back(std::move(b));
  }
  return p;
}

Parameters Parameters::from_flat(const std::vector<float>& flat) {
  if (int64_t(flat.size()) != total_parameter_count()) {
    throw std::runtime_error("expected " + std::to_string(total_parameter_count()) +
                             " floats for the seed's network, got " + std::to_string(flat.size()));
  }
  Parameters p;
  size_t offset = 0;
  for (const auto& layer : kLayers) {
    HostTensor w{std::string(layer.name) + ".weight", weight_shape(layer), {}};
    w.data.assign(flat.begin() + offset, flat.begin() + offset + size_t(layer.weight_count()));
    offset += size_t(layer.weight_count());
    HostTensor b{std::string(layer.name) + ".bias", {layer.out_channels}, {}};
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

void check_architecture(const std::vector<HostTensor>& tensors) {
  Parameters expected = Parameters::he_normal(0);
  for (const auto& want : expected.tensors) {
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
    if (found->data.size() != want.data.size()) {
      throw std::runtime_error("tensor " + want.name + " has the wrong number of values");
    }
  }
}

}  // namespace cae::nn
