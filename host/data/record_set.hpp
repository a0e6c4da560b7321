#pragma once
// Sets stored as fixed-size records (CIFAR-10/100: label bytes then the image;
// STL-10: images in one file, labels in another). The labels are read and
// checked a chunk at a time, never the whole image file at once.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data/image_reader.hpp"
#include "data/image_set.hpp"

namespace cae {

// The records in `path`: its size less layout.header_bytes must be a positive
// multiple of layout.record_bytes (DataError otherwise).
size_t count_file_records(const std::string& path, const RecordLayout& layout);

// Label byte `label_offset` of the first `count` records of `path`, each
// checked to be below `num_classes`.
std::vector<uint8_t> read_record_labels(const std::string& path, const RecordLayout& layout,
                                        size_t label_offset, size_t count, size_t num_classes);

// The images of `paths` (records counted across them in order, the first
// `max_images` when non-zero) with labels taken from each record at
// `label_offset`, in memory or on disk by the cap.
ImageSet labelled_record_set(const std::vector<std::string>& paths, const RecordLayout& layout,
                             size_t label_offset, size_t num_classes, size_t max_images,
                             uint64_t memory_cap_bytes);

}  // namespace cae
