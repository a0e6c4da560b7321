// Fuzzes `cae import-weights`' reader of the seed project's raw weights
// file. Only a file of exactly 751,875 floats is valid, far longer than a
// fuzzed input, so an input whose first byte is odd is repeated to that size
// (its bytes then decide which values are NaN or infinite); any other input
// is read as it is.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "io/io_error.hpp"
#include "nn/architecture.hpp"
#include "nn/seed_weights.hpp"
#include "reader_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const size_t kSeedBytes =
      size_t(cae::nn::Network::seed().parameter_count()) * sizeof(float);
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (size > 1 && (data[0] & 1) != 0) {
    std::string tiled;
    tiled.reserve(kSeedBytes);
    while (tiled.size() < kSeedBytes) tiled.append(bytes, 1, std::string::npos);
    tiled.resize(kSeedBytes);
    bytes = std::move(tiled);
  }
  try {
    const cae::nn::Parameters parameters = cae::nn::parse_seed_weights(bytes, cae::fuzz::kPath);
    // Accepted: the parameters are the file's values, in its order.
    const std::vector<float> flat = parameters.flatten();
    if (bytes.size() != kSeedBytes || flat.size() * sizeof(float) != kSeedBytes ||
        std::memcmp(flat.data(), bytes.data(), kSeedBytes) != 0) {
      std::abort();
    }
  } catch (const cae::IoError& error) {
    cae::fuzz::require_good_message(error.what());
  }
  return 0;
}
