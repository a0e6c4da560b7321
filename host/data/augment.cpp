#include "data/augment.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "cae/backend.h"
#include "common/parallel.hpp"
#include "data/random.hpp"

namespace cae {
namespace {

// Streams apart from the epoch shuffle's (which mixes the seed with the epoch alone).
constexpr uint64_t kAugmentStream = 0x61756731;  // "aug1"
constexpr uint64_t kNoiseStream = 0x6e6f6931;    // "noi1"
// Values per thread's task (one CIFAR image).
constexpr size_t kNoiseBlock = 3072;
constexpr size_t kMaxNoiseThreads = 16;

std::mt19937_64 batch_rng(uint64_t seed, uint64_t stream, size_t epoch, size_t batch_number) {
  return std::mt19937_64(mix_seed(mix_seed(mix_seed(seed, stream), epoch), batch_number));
}

void mirror_image(const float* in, float* out, int channels, int side) {
  for (int row = 0; row < channels * side; ++row) {
    const float* source = in + size_t(row) * size_t(side);
    float* target = out + size_t(row) * size_t(side);
    for (int x = 0; x < side; ++x) target[x] = source[side - 1 - x];
  }
}

// out(c, y, x) = m(c, y + dy, x + dx), zero outside the image, where m is
// the image mirrored left-right when `move.mirror`, else the image: the
// mirror, then the shift, in one pass that reads each kept pixel once.
void move_image(const float* in, float* out, int channels, int side, ImageMove move) {
  // The columns x whose source column x + dx lies inside the image.
  const int first = std::max(0, -move.dx), last = std::min(side, side - move.dx);
  for (int c = 0; c < channels; ++c) {
    for (int y = 0; y < side; ++y) {
      float* target = out + (size_t(c) * size_t(side) + size_t(y)) * size_t(side);
      const int sy = y + move.dy;
      if (sy < 0 || sy >= side || first >= last) {
        std::fill(target, target + side, 0.0f);
        continue;
      }
      const float* source = in + (size_t(c) * size_t(side) + size_t(sy)) * size_t(side);
      std::fill(target, target + first, 0.0f);
      if (move.mirror) {
        for (int x = first; x < last; ++x) target[x] = source[side - 1 - (x + move.dx)];
      } else {
        std::copy(source + first + move.dx, source + last + move.dx, target + first);
      }
      std::fill(target + last, target + side, 0.0f);
    }
  }
}

}  // namespace

Augmentation parse_augmentation(const std::string& name) {
  for (Augmentation a : {Augmentation::None, Augmentation::Flip, Augmentation::FlipCrop}) {
    if (name == augmentation_name(a)) return a;
  }
  throw std::invalid_argument("--augment must be none, flip or flip-crop, got '" + name + "'");
}

const char* augmentation_name(Augmentation augmentation) {
  switch (augmentation) {
    case Augmentation::None:
      return "none";
    case Augmentation::Flip:
      return "flip";
    case Augmentation::FlipCrop:
      return "flip-crop";
  }
  throw std::logic_error("unknown augmentation");
}

void mirror_images(const float* in, float* out, size_t count, int channels, int side) {
  const size_t floats = size_t(channels) * size_t(side) * size_t(side);
  for (size_t i = 0; i < count; ++i) mirror_image(in + i * floats, out + i * floats, channels, side);
}

BatchAugmenter::BatchAugmenter(Augmentation augmentation, uint64_t seed)
    : augmentation_(augmentation), seed_(seed) {}

void move_images(float* images, const ImageMove* moves, size_t count, int channels, int side) {
  const size_t floats = size_t(channels) * size_t(side) * size_t(side);
  std::vector<float> moved(floats);
  for (size_t i = 0; i < count; ++i) {
    const ImageMove& move = moves[i];
    if (!move.mirror && move.dx == 0 && move.dy == 0) continue;
    float* image = images + i * floats;
    move_image(image, moved.data(), channels, side, move);
    std::copy(moved.begin(), moved.end(), image);
  }
}

std::vector<ImageMove> BatchAugmenter::moves(size_t count, size_t epoch,
                                             size_t batch_number) const {
  std::vector<ImageMove> moves(count);
  if (!active()) return moves;
  std::mt19937_64 rng = batch_rng(seed_, kAugmentStream, epoch, batch_number);
  for (ImageMove& move : moves) {
    move.mirror = uniform_below(rng, 2) == 1;
    if (augmentation_ == Augmentation::FlipCrop) {
      const int span = 2 * kMaxShift + 1;
      move.dx = int(uniform_below(rng, span)) - kMaxShift;
      move.dy = int(uniform_below(rng, span)) - kMaxShift;
    }
  }
  return moves;
}

void BatchAugmenter::apply(float* batch, size_t count, int channels, int side, size_t epoch,
                           size_t batch_number) const {
  if (!active()) return;
  move_images(batch, moves(count, epoch, batch_number).data(), count, channels, side);
}

std::vector<bool> BatchAugmenter::flips(size_t count, size_t epoch, size_t batch_number) const {
  if (active() && augmentation_ != Augmentation::Flip) {
    throw std::logic_error("BatchAugmenter::flips: only for none or flip augmentation");
  }
  std::vector<bool> mirrored(count, false);
  const std::vector<ImageMove> drawn = moves(count, epoch, batch_number);
  for (size_t i = 0; i < count; ++i) mirrored[i] = drawn[i].mirror;
  return mirrored;
}

uint64_t input_noise_stream(uint64_t seed, size_t epoch, size_t batch_number) {
  return mix_seed(mix_seed(mix_seed(seed, kNoiseStream), epoch), batch_number);
}

void add_input_noise(float* values, size_t count, float sigma, uint64_t stream,
                     uint64_t first_index) {
  if (sigma <= 0) return;
  // Why threads: a batch of 64 CIFAR images is 196,608 draws, each a hash, a
  // logarithm and a sine, several times a GPU step on one core. The draws
  // depend on the value's index alone, so the split does not change them.
  const int64_t blocks = int64_t((count + kNoiseBlock - 1) / kNoiseBlock);
  const int threads = static_cast<int>(
      std::min<int64_t>(resolve_thread_count(0), static_cast<int64_t>(kMaxNoiseThreads)));
  parallel_chunks(threads, blocks, [&](int64_t first, int64_t end) {
    const size_t stop = std::min(count, size_t(end) * kNoiseBlock);
    for (size_t i = size_t(first) * kNoiseBlock; i < stop; ++i) {
      values[i] += sigma * cae_normal_draw(stream, first_index + i);
    }
  });
}

}  // namespace cae
