#include "data/record_set.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "data/data_error.hpp"
#include "data/data_file.hpp"
#include "data/image_set_builder.hpp"

namespace cae {

size_t count_file_records(const std::string& path, const RecordLayout& layout) {
  std::error_code error;
  const uintmax_t bytes = std::filesystem::file_size(path, error);
  if (error) throw DataError("cannot read " + path + ": " + error.message());
  if (bytes <= layout.header_bytes) throw DataError(path + " holds no images (it is empty)");
  const uintmax_t body = bytes - layout.header_bytes;
  if (body % layout.record_bytes != 0) {
    throw DataError(path + " is " + std::to_string(bytes) + " bytes, not " +
                    (layout.header_bytes ? std::to_string(layout.header_bytes) + " plus " : "") +
                    "a multiple of the " + std::to_string(layout.record_bytes) +
                    "-byte record (" + std::to_string(layout.channels) + "x" +
                    std::to_string(layout.side) + "x" + std::to_string(layout.side) + " images)");
  }
  return size_t(body / layout.record_bytes);
}

std::vector<uint8_t> read_record_labels(const std::string& path, const RecordLayout& layout,
                                        size_t label_offset, size_t count, size_t num_classes) {
  const UniqueFile file = open_data_file(path);
  constexpr size_t kChunkRecords = 1024;
  std::vector<uint8_t> chunk(kChunkRecords * layout.record_bytes);
  std::vector<uint8_t> labels;
  labels.reserve(count);
  if (std::fseek(file.get(), long(layout.header_bytes), SEEK_SET) != 0) {
    throw DataError("cannot read " + path + ": " + std::strerror(errno));
  }
  while (labels.size() < count) {
    const size_t records = std::min(kChunkRecords, count - labels.size());
    const size_t got = std::fread(chunk.data(), 1, records * layout.record_bytes, file.get());
    if (got != records * layout.record_bytes) {
      throw DataError("cannot read " + path + ": it ended after " +
                      std::to_string(labels.size() + got / layout.record_bytes) + " records");
    }
    for (size_t r = 0; r < records; ++r) {
      const uint8_t label = chunk[r * layout.record_bytes + label_offset];
      if (label >= num_classes) {
        throw DataError(path + ": record " + std::to_string(labels.size()) +
                        " (counting from 0) has label " + std::to_string(label) +
                        ", not a class 0.." + std::to_string(num_classes - 1));
      }
      labels.push_back(label);
    }
  }
  return labels;
}

ImageSet labelled_record_set(const std::vector<std::string>& paths, const RecordLayout& layout,
                             size_t label_offset, size_t num_classes, size_t max_images,
                             uint64_t memory_cap_bytes) {
  std::vector<RecordFile> files;
  std::vector<uint8_t> labels;
  for (const std::string& path : paths) {
    if (max_images != 0 && labels.size() >= max_images) break;
    size_t records = count_file_records(path, layout);
    if (max_images != 0) records = std::min(records, max_images - labels.size());
    const std::vector<uint8_t> more =
        read_record_labels(path, layout, label_offset, records, num_classes);
    labels.insert(labels.end(), more.begin(), more.end());
    files.push_back({path, records});
  }
  return settle_images(record_reader(std::move(files), layout), std::move(labels),
                       layout.channels, layout.side, memory_cap_bytes);
}

}  // namespace cae
