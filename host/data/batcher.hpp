#pragma once
// Mini-batches for training: every image exactly once per epoch, in an order
// that depends only on (seed, epoch), so a run resumed at epoch k sees the
// same batches as an uninterrupted one.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/image_set.hpp"

namespace cae {

class EpochBatcher {
 public:
  // batch_size must be > 0 (std::invalid_argument). Starts at epoch 0.
  EpochBatcher(size_t num_images, size_t batch_size, uint64_t seed);

  // Shuffles for `epoch` (0-based) and rewinds to its first batch.
  void start_epoch(size_t epoch);

  // The next batch of the epoch: batch_size indices, fewer for the last one.
  // Returns false (and clears `indices`) when the epoch is exhausted.
  bool next_batch(std::vector<size_t>& indices);

  size_t epoch() const { return epoch_; }
  size_t batch_size() const { return batch_size_; }
  size_t num_images() const { return order_.size(); }
  // ceil(num_images / batch_size).
  size_t batches_per_epoch() const;
  // The whole permutation of the current epoch.
  const std::vector<size_t>& epoch_order() const { return order_; }

 private:
  size_t batch_size_;
  uint64_t seed_;
  size_t epoch_ = 0;
  size_t position_ = 0;
  std::vector<size_t> order_;
};

// Copies the images `indices` of `images` into `out_nchw` (indices.size() *
// images.image_bytes() floats), scaled from 0..255 to [0, 1]; a set kept on
// disk is read image by image. Throws std::out_of_range for an index past the
// end of the set.
void fill_batch(const ImageSet& images, const std::vector<size_t>& indices, float* out_nchw);
// The same for `count` indices from `indices` (a part of a batch; threads
// may fill the parts of one batch side by side where the set is in memory).
void fill_batch(const ImageSet& images, const size_t* indices, size_t count, float* out_nchw);

}  // namespace cae
