#include "plugin/byte_exchange.hpp"

#include <algorithm>
#include <stdexcept>

namespace cae {

namespace {

// A size as four 16-bit pieces, so any size_t travels exactly.
constexpr size_t kSizePieces = 4;

}  // namespace

std::vector<std::vector<uint8_t>> all_gather_bytes(ProcessGroup& group, Context& context,
                                                   const std::vector<uint8_t>& mine,
                                                   size_t tile_bytes) {
  const size_t world = size_t(group.world());
  const size_t rank = size_t(group.rank());
  // First every rank's size, then the bytes: two bytes per float, as an
  // integer 0..65535.
  Tensor sizes = context.alloc({int64_t(world * kSizePieces)});
  std::vector<float> host(world * kSizePieces, 0.0f);
  for (size_t piece = 0; piece < kSizePieces; ++piece) {
    host[rank * kSizePieces + piece] = float((uint64_t(mine.size()) >> (16 * piece)) & 0xffffu);
  }
  sizes.upload(host);
  group.all_reduce_sum({&sizes}, 1.0f);
  sizes.download(host.data(), host.size());
  std::vector<size_t> count(world), first(world + 1, 0);
  for (size_t r = 0; r < world; ++r) {
    uint64_t size = 0;
    for (size_t piece = 0; piece < kSizePieces; ++piece) {
      size |= uint64_t(host[r * kSizePieces + piece]) << (16 * piece);
    }
    count[r] = size_t(size);
    first[r + 1] = first[r] + (count[r] + 1) / 2;  // 16-bit words
  }
  if (count[rank] != mine.size()) {
    throw std::runtime_error("all_gather_bytes: rank " + std::to_string(rank) +
                             " read back its size as " + std::to_string(count[rank]) + ", not " +
                             std::to_string(mine.size()));
  }
  std::vector<std::vector<uint8_t>> all(world);
  for (size_t r = 0; r < world; ++r) all[r].resize(count[r]);
  const size_t words = first[world];
  if (words == 0) return all;
  auto byte_of = [](const std::vector<uint8_t>& bytes, size_t at) -> uint32_t {
    return at < bytes.size() ? bytes[at] : 0u;
  };
  const size_t tile_words = std::max<size_t>(1, tile_bytes / sizeof(float));
  Tensor tensor;
  for (size_t begin = 0; begin < words; begin += tile_words) {
    const size_t n = std::min(tile_words, words - begin);
    host.assign(n, 0.0f);
    // This rank's words that fall in the tile.
    const size_t from = std::max(begin, first[rank]), to = std::min(begin + n, first[rank + 1]);
    for (size_t w = from; w < to; ++w) {
      const size_t at = 2 * (w - first[rank]);
      host[w - begin] = float(byte_of(mine, at) | (byte_of(mine, at + 1) << 8));
    }
    if (!tensor || tensor.dims()[0] != int64_t(n)) tensor = context.alloc({int64_t(n)});
    tensor.upload(host);
    group.all_reduce_sum({&tensor}, 1.0f);
    tensor.download(host.data(), n);
    for (size_t r = 0; r < world; ++r) {
      const size_t lo = std::max(begin, first[r]), hi = std::min(begin + n, first[r + 1]);
      for (size_t w = lo; w < hi; ++w) {
        const uint32_t word = uint32_t(host[w - begin]);
        const size_t at = 2 * (w - first[r]);
        all[r][at] = uint8_t(word & 0xffu);
        if (at + 1 < count[r]) all[r][at + 1] = uint8_t(word >> 8);
      }
    }
  }
  return all;
}

}  // namespace cae
