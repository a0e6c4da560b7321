#include "io/sha256.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace cae {

Sha256::Sha256(Sha256Engine engine)
    : blocks_(sha256_blocks(engine)),
      state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
             0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

void Sha256::update(const void* data, size_t size) {
  // Nothing to hash (an empty tensor may come as a null pointer, which
  // memcpy may not be given even for no bytes).
  if (size == 0) return;
  const auto* bytes = static_cast<const uint8_t*>(data);
  length_ += size;
  // Whole blocks go straight from the caller's bytes; only a partial block
  // at either end passes through the buffer.
  if (buffered_ > 0) {
    const size_t take = std::min(size, buffer_.size() - buffered_);
    std::memcpy(buffer_.data() + buffered_, bytes, take);
    buffered_ += take;
    bytes += take;
    size -= take;
    if (buffered_ < buffer_.size()) return;
    blocks_(state_.data(), buffer_.data(), 1);
    buffered_ = 0;
  }
  const size_t whole = size / buffer_.size();
  if (whole > 0) blocks_(state_.data(), bytes, whole);
  bytes += whole * buffer_.size();
  size -= whole * buffer_.size();
  if (size > 0) std::memcpy(buffer_.data(), bytes, size);
  buffered_ = size;
}

std::string Sha256::hex() const {
  Sha256 padded = *this;  // the padding ends a copy, so this one can go on
  const uint64_t bits = length_ * 8;
  const uint8_t one = 0x80;
  padded.update(&one, 1);
  const uint8_t zero = 0;
  while (padded.buffered_ != 56) padded.update(&zero, 1);
  uint8_t tail[8];
  for (int i = 0; i < 8; ++i) tail[i] = uint8_t(bits >> (56 - 8 * i));
  padded.update(tail, 8);
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (uint32_t word : padded.state_) {
    for (int shift = 28; shift >= 0; shift -= 4) out += digits[(word >> shift) & 0xf];
  }
  return out;
}

std::string sha256_of_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path + " to compute its SHA-256");
  Sha256 hash;
  std::vector<char> piece(1 << 20);
  while (in) {
    in.read(piece.data(), std::streamsize(piece.size()));
    hash.update(piece.data(), size_t(in.gcount()));
  }
  if (in.bad()) throw std::runtime_error("cannot read " + path + " to compute its SHA-256");
  return hash.hex();
}

}  // namespace cae
