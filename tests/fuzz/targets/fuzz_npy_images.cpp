// Fuzzes the .npy image source: images.npy ((N, H, W[, C]) uint8 or float32
// in [0, 1]) and labels.npy beside it. The input's first two bytes (little
// endian) give the length of the labels part that follows them; the rest is
// the images file. Read split in half, from memory and left on disk.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "data_source_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cae::fuzz;
  if (size < 2) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const size_t labels = std::min(size_t(data[0]) | size_t(data[1]) << 8, size - 2);
  put_scratch_file("labels.npy", bytes.substr(2, labels));
  put_scratch_file("images.npy", bytes.substr(2 + labels));
  cae::DataOptions options;
  options.format = cae::DataFormat::kNpy;
  options.test_fraction = 0.5;
  for (uint64_t cap : {cae::kDefaultMemoryCapBytes, uint64_t(0)}) {
    options.memory_cap_bytes = cap;
    load_and_read(scratch_folder(), options);
  }
  return 0;
}
