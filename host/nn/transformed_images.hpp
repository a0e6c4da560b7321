// The input transform's output for every image of a set, computed once (one
// SGEMM per chunk of the set) instead of once per batch and epoch: whitening
// costs 2·D² FLOP per image (19 MFLOP for 32x32 RGB), which per batch would
// cost a training run more host time than the GPU spends on its epochs.
// Contrast normalisation alone is cheap per image, yet per batch it still cut
// a fast backend's training to a third of its images/s: it is kept too, while
// its rows take at most kMaxContrastOnlyBytes (CIFAR-10's 50,000 images and
// their mirrors: 1.2 GB). Kept for a set in memory; with flips, the mirror
// images' transforms too, so a flipped image is transformed after it is
// mirrored, as in the per-batch order (fill, augment, transform): the rows
// are bit-identical to the per-batch path's. Patch whitening's convolution
// runs on the context's backend when it can (nn/batch_transform.hpp): after
// the host's cores have filled, mirrored and contrast-normalised every row,
// the backend convolves them a chunk at a time; the rows then equal the
// per-batch path's as far as that backend gives an image the same
// convolution in a chunk of any size (the cpu backend's agree within 1e-6
// of the largest value: tests/unit/nn/batch_transform_test.cpp).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "data/input_transform.hpp"
#include "nn/batch_transform.hpp"

namespace cae::nn {

inline constexpr size_t kMaxContrastOnlyBytes = size_t(2) << 30;

class TransformedImages {
 public:
  TransformedImages() = default;
  // Empty unless `transform` is active and `images` are in memory (and, for
  // contrast normalisation alone, fit kMaxContrastOnlyBytes).
  TransformedImages(const ImageSet& images, const InputTransform* transform, bool with_mirrors);
  // The same with `transform`'s placement: patch whitening's convolution on
  // its backend when it has one there.
  TransformedImages(const ImageSet& images, BatchTransform& transform, bool with_mirrors);

  bool empty() const { return count_ == 0; }
  // The transformed rows `indices` into `out`; image b from its mirror's row
  // when mirrored[b] (mirrored may be shorter: false beyond its end).
  void fill(const std::vector<size_t>& indices, const std::vector<bool>& mirrored, float* out) const;

 private:
  size_t dim_ = 0;
  size_t count_ = 0;  // images
  // Left uninitialised until the cores fill them: zeroing first cost a
  // single-threaded pass over every page (a third of a second for
  // CIFAR-10's 1.2 GB on one core), before the parallel fill wrote them again.
  std::unique_ptr<float[]> rows_;
  std::unique_ptr<float[]> mirrored_rows_;
};

}  // namespace cae::nn
