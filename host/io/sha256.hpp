// SHA-256 (FIPS 180-4): the one content identity cae gives files and
// tensors, so that a product can name exactly what produced it (the
// checkpoint behind features and SVM models), a certification names exactly
// the plugin file it certified, and an output set's manifest tells whether a
// file is the one its run wrote (io/output_set.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/sha256_blocks.hpp"

namespace cae {

class Sha256 {
 public:
  explicit Sha256(Sha256Engine engine = Sha256Engine::Best);
  void update(const void* data, size_t size);
  // The digest of the bytes seen so far, as 64 lowercase hex digits; more
  // bytes may follow.
  std::string hex() const;
  uint64_t bytes() const { return length_; }

 private:
  Sha256Blocks blocks_;
  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t length_ = 0;  // bytes hashed so far
};

// The digest of a whole file, read in pieces. Throws std::runtime_error
// naming the file when it cannot be read.
std::string sha256_of_file(const std::string& path);

}  // namespace cae
