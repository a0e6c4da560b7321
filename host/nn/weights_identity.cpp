#include "nn/weights_identity.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

#include "io/sha256.hpp"

namespace cae::nn {
namespace {

void add_u64(Sha256& hash, uint64_t value) {
  uint8_t bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = uint8_t(value >> (8 * i));
  hash.update(bytes, sizeof bytes);
}

}  // namespace

std::string weights_identity(const Parameters& parameters) {
  static_assert(sizeof(float) == 4, "float32 expected");
  Sha256 hash;
  std::vector<NamedTensor> tensors = parameters.tensors;
  // The input transform is part of what the features are a function of; a
  // model without one hashes as it always did.
  if (parameters.input && parameters.input->spec.active()) {
    const std::string transform = "input: " + describe_input_transform(parameters.input->spec);
    tensors.push_back({transform, {}, {}});
    for (NamedTensor& t : parameters.input->tensors()) tensors.push_back(std::move(t));
  }
  for (const auto& tensor : tensors) {
    add_u64(hash, tensor.name.size());
    hash.update(tensor.name.data(), tensor.name.size());
    add_u64(hash, tensor.shape.size());
    for (int64_t dim : tensor.shape) add_u64(hash, uint64_t(dim));
    std::vector<uint8_t> bytes(tensor.data.size() * 4);
    for (size_t i = 0; i < tensor.data.size(); ++i) {
      uint32_t bits;
      std::memcpy(&bits, &tensor.data[i], sizeof bits);
      for (int b = 0; b < 4; ++b) bytes[4 * i + size_t(b)] = uint8_t(bits >> (8 * b));
    }
    hash.update(bytes.data(), bytes.size());
  }
  return hash.hex();
}

std::string short_identity(const std::string& identity) { return identity.substr(0, 12); }

}  // namespace cae::nn
