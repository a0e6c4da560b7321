#include "io/content_hash.hpp"

#include <cstdio>
#include <cstring>

namespace cae {

namespace {

uint64_t load_word(const unsigned char* bytes) {
  uint64_t word = 0;
  for (int i = 7; i >= 0; --i) word = (word << 8) | bytes[i];  // little-endian on every host
  return word;
}

uint64_t finalize(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

}  // namespace

void ContentHash::mix(uint64_t word) {
  state_ = (state_ ^ word) * 0x9e3779b97f4a7c15ULL;
  state_ ^= state_ >> 29;
}

void ContentHash::update(const void* data, size_t bytes) {
  const auto* in = static_cast<const unsigned char*>(data);
  total_ += bytes;
  while (pending_bytes_ > 0 && pending_bytes_ < 8 && bytes > 0) {
    pending_[pending_bytes_++] = *in++;
    --bytes;
  }
  if (pending_bytes_ == 8) {
    mix(load_word(pending_));
    pending_bytes_ = 0;
  }
  for (; bytes >= 8; in += 8, bytes -= 8) mix(load_word(in));
  std::memcpy(pending_, in, bytes);
  pending_bytes_ += bytes;
}

std::string ContentHash::hex() const {
  uint64_t h = state_;
  for (size_t i = 0; i < pending_bytes_; ++i) h = (h ^ pending_[i]) * 0x100000001b3ULL;
  h = finalize(h ^ total_);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

}  // namespace cae
