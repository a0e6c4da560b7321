#pragma once
// The safetensors format, float32 only: an 8-byte little-endian header length,
// a JSON header {"name": {"dtype": "F32", "shape": [...], "data_offsets": [b, e]},
// "__metadata__": {string: string}} padded with spaces to a multiple of 8, then
// the raw little-endian tensor bytes (offsets are relative to the data start).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cae {

struct NamedTensor {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<float> data;  // product(shape) values, row-major
};

// A tensor to write whose values live elsewhere: a model's gigabyte of
// support vectors is written from where it is, not copied into a NamedTensor.
struct TensorView {
  std::string name;
  std::vector<int64_t> shape;
  const float* data = nullptr;
  size_t count = 0;  // values at data: product(shape)
};

using SafetensorsMetadata = std::map<std::string, std::string>;

struct SafetensorsFile {
  std::vector<NamedTensor> tensors;  // in file (data offset) order
  SafetensorsMetadata metadata;

  // nullptr when there is no tensor of that name.
  const NamedTensor* find(const std::string& name) const;
  // Throws IoError naming the missing tensor.
  const NamedTensor& at(const std::string& name) const;

  std::string path;  // where it was read from, for error messages
};

// Writes atomically, tensors in the given order. Throws IoError for names that
// are empty, repeated or "__metadata__", for data that does not match its
// shape, and for NaN or infinity (which the reader would refuse).
void write_safetensors(const std::string& path, const std::vector<NamedTensor>& tensors,
                       const SafetensorsMetadata& metadata = {});
void write_safetensors(const std::string& path, const std::vector<TensorView>& tensors,
                       const SafetensorsMetadata& metadata = {});

// Reads and validates the whole file; every problem is a one-line IoError.
// Every tensor is checked to hold only finite values, once, here.
SafetensorsFile read_safetensors(const std::string& path);

// The same, for the file's bytes already in memory; `path` names the file in
// messages.
SafetensorsFile parse_safetensors(const std::string& bytes, const std::string& path);

}  // namespace cae
