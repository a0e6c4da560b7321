#include "data/batcher.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "data/random.hpp"

namespace cae {

EpochBatcher::EpochBatcher(size_t num_images, size_t batch_size, uint64_t seed)
    : batch_size_(batch_size), seed_(seed), order_(num_images) {
  if (batch_size == 0) throw std::invalid_argument("EpochBatcher: batch size must be > 0");
  start_epoch(0);
}

void EpochBatcher::start_epoch(size_t epoch) {
  epoch_ = epoch;
  position_ = 0;
  std::iota(order_.begin(), order_.end(), size_t{0});
  // Shuffling the identity afresh (not the previous order) keeps each epoch's
  // order a function of (seed, epoch) alone.
  std::mt19937_64 rng(mix_seed(seed_, epoch));
  shuffle_indices(order_, rng);
}

bool EpochBatcher::next_batch(std::vector<size_t>& indices) {
  indices.clear();
  if (position_ >= order_.size()) return false;
  const size_t end = std::min(order_.size(), position_ + batch_size_);
  indices.assign(order_.begin() + static_cast<std::ptrdiff_t>(position_),
                 order_.begin() + static_cast<std::ptrdiff_t>(end));
  position_ = end;
  return true;
}

size_t EpochBatcher::batches_per_epoch() const {
  return (order_.size() + batch_size_ - 1) / batch_size_;
}

void fill_batch(const ImageSet& images, const std::vector<size_t>& indices, float* out_nchw) {
  fill_batch(images, indices.data(), indices.size(), out_nchw);
}

void fill_batch(const ImageSet& images, const size_t* indices, size_t count, float* out_nchw) {
  constexpr float kScale = 1.0f / 255.0f;
  const size_t image_bytes = images.image_bytes();
  std::vector<uint8_t> from_disk(images.on_disk() ? image_bytes : 0);
  for (size_t b = 0; b < count; ++b) {
    if (indices[b] >= images.size()) {
      throw std::out_of_range("fill_batch: image " + std::to_string(indices[b]) +
                              " is past the end of a set of " + std::to_string(images.size()));
    }
    const uint8_t* source = images.on_disk() ? from_disk.data() : images.image(indices[b]);
    if (images.on_disk()) images.reader->read(indices[b], from_disk.data());
    float* target = out_nchw + b * image_bytes;
    for (size_t i = 0; i < image_bytes; ++i) target[i] = source[i] * kScale;
  }
}

}  // namespace cae
