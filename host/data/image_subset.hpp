#pragma once
// A set without some of its images: what the autoencoder trains on when the
// classifier's validation split is kept from it (`cae pipeline
// --hold-out-validation`), so that the split's images are as new to the
// features as the test set's.

#include <cstdint>
#include <vector>

#include "data/image_set.hpp"

namespace cae {

// `set` without the images at `rows` (ascending, distinct, each < set.size()),
// the others in their order, in memory (an on-disk set's kept images are
// read). Throws std::invalid_argument when `rows` is not such a list or
// leaves no image.
ImageSet images_without(const ImageSet& set, const std::vector<int64_t>& rows);

}  // namespace cae
