#pragma once
// A fast 64-bit fingerprint of a file's bytes, to tell whether a file is the
// one a run wrote (io/output_set.hpp). It guards against mix-ups, not
// against forgery: two different files of one folder colliding by chance is
// a 1 in 2^64 event.

#include <cstddef>
#include <cstdint>
#include <string>

namespace cae {

class ContentHash {
 public:
  void update(const void* data, size_t bytes);
  // 16 hex digits of the bytes seen so far (their count included).
  std::string hex() const;
  uint64_t bytes() const { return total_; }

 private:
  void mix(uint64_t word);

  uint64_t state_ = 0x6a09e667f3bcc909ULL;
  uint64_t total_ = 0;
  unsigned char pending_[8] = {};
  size_t pending_bytes_ = 0;
};

}  // namespace cae
