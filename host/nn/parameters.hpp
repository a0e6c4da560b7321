// The model's parameters on the host: named float32 tensors in checkpoint
// order (OIHW weights, then biases), He-normal initialised.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/input_transform.hpp"
#include "io/safetensors.hpp"
#include "nn/architecture.hpp"

namespace cae::nn {

// A named host tensor ("encoder.conv1.weight", OIHW or [O]) as checkpoints store it.
using HostTensor = cae::NamedTensor;

// weight, bias, weight, bias, ... in the network's layer order.
struct Parameters {
  Network network = Network::seed();
  std::vector<HostTensor> tensors;
  // The transform every input image goes through before the first layer
  // (data/input_transform.hpp); null for none. Shared: it is learned once
  // and never changes, while the weights are copied every epoch.
  std::shared_ptr<const InputTransform> input;

  static Parameters he_normal(const Network& network, uint64_t seed);  // biases zero
  // The seed project's raw format: network.parameter_count() little-endian
  // floats (751,875 for the seed), layer by layer, each weight (OIHW)
  // followed by its bias. Throws on a wrong size.
  static Parameters from_flat(const Network& network, const std::vector<float>& flat);
  std::vector<float> flatten() const;

  const HostTensor& at(const std::string& name) const;
  int64_t count() const;
};

// Checks names and shapes against the network (e.g. after loading a
// checkpoint); throws std::runtime_error naming the first mismatch.
void check_architecture(const Network& network, const std::vector<HostTensor>& tensors);

}  // namespace cae::nn
