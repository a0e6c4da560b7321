#pragma once
// Turning a source's reader into an ImageSet: in memory when the set fits the
// cap (every image read once, up front), otherwise left on disk.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "data/image_set.hpp"

namespace cae {

ImageSet settle_images(std::shared_ptr<const ImageReader> reader, std::vector<uint8_t> labels,
                       int channels, int side, uint64_t memory_cap_bytes);

// The images `indices` of `reader`, in that order.
std::shared_ptr<const ImageReader> subset_reader(std::shared_ptr<const ImageReader> reader,
                                                 std::vector<size_t> indices);

// Keeps the first `max` images (all when 0 or when the set has fewer).
void keep_first(ImageSet& images, size_t max);

}  // namespace cae
