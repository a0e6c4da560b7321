#include "nn/seed_weights.hpp"

#include <cstring>
#include <filesystem>
#include <vector>

#include "io/binary_file.hpp"
#include "io/finite.hpp"
#include "io/io_error.hpp"
#include "nn/architecture.hpp"

namespace cae::nn {
namespace {

int64_t expected_bytes() { return Network::seed().parameter_count() * int64_t(sizeof(float)); }

IoError wrong_size(const std::string& path, uintmax_t bytes) {
  return IoError(path + " is " + std::to_string(bytes) + " bytes; the seed's weights file is " +
                 std::to_string(expected_bytes()) + " (751,875 float32 values)");
}

}  // namespace

Parameters parse_seed_weights(const std::string& bytes, const std::string& path) {
  const Network network = Network::seed();
  if (bytes.size() != size_t(expected_bytes())) throw wrong_size(path, bytes.size());
  std::vector<float> flat(size_t(network.parameter_count()));
  std::memcpy(flat.data(), bytes.data(), bytes.size());
  require_finite(flat.data(), flat.size(), path);
  return Parameters::from_flat(network, flat);
}

Parameters read_seed_weights(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw IoError(path + " is a folder, not the seed's weights file");
  }
  const uintmax_t bytes = std::filesystem::file_size(path, error);
  if (!error && bytes != uintmax_t(expected_bytes())) throw wrong_size(path, bytes);
  return parse_seed_weights(read_binary_file(path), path);
}

}  // namespace cae::nn
