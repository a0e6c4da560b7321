#pragma once
// Hand-made CIFAR-10 files for the loader tests: record i of a file gets label
// labels[i] and every pixel byte set to pixel_value(i, byte).

#include <cstdint>
#include <string>
#include <vector>

#include "data/cifar_format.hpp"
#include "io/scratch_dir.hpp"

namespace cae::test {

inline uint8_t pixel_value(size_t record, size_t byte) {
  return static_cast<uint8_t>((record * 7 + byte) % 256);
}

inline std::string cifar_records(const std::vector<uint8_t>& labels) {
  std::string bytes;
  for (size_t i = 0; i < labels.size(); ++i) {
    bytes += static_cast<char>(labels[i]);
    for (size_t b = 0; b < cifar::kImageBytes; ++b) bytes += static_cast<char>(pixel_value(i, b));
  }
  return bytes;
}

inline void write_class_names(const std::string& path) {
  write_bytes(path, "airplane\nautomobile\nbird\ncat\ndeer\ndog\nfrog\nhorse\nship\ntruck\n\n");
}

}  // namespace cae::test
