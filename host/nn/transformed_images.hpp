// The input transform's output for every image of a set, computed once (one
// SGEMM per chunk of the set) instead of once per batch and epoch: whitening
// costs 2·D² FLOP per image (19 MFLOP for 32x32 RGB), which per batch would
// cost a training run more host time than the GPU spends on its epochs. Kept
// for a set in memory and a transform that whitens; with flips, the mirror
// images' transforms too, so a flipped image is whitened after it is
// mirrored, as in the per-batch order (fill, augment, transform).
#pragma once

#include <vector>

#include "data/input_transform.hpp"

namespace cae::nn {

class TransformedImages {
 public:
  TransformedImages() = default;
  // Empty unless `transform` whitens and `images` are in memory.
  TransformedImages(const ImageSet& images, const InputTransform* transform, bool with_mirrors);

  bool empty() const { return rows_.empty(); }
  // The transformed rows `indices` into `out`; image b from its mirror's row
  // when mirrored[b] (mirrored may be shorter: false beyond its end).
  void fill(const std::vector<size_t>& indices, const std::vector<bool>& mirrored, float* out) const;

 private:
  size_t dim_ = 0;
  std::vector<float> rows_;
  std::vector<float> mirrored_rows_;
};

}  // namespace cae::nn
