#include "data/image_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>

#include "data/data_error.hpp"
#include "data/data_file.hpp"

namespace cae {
namespace {

// Reads image bytes with pread, which keeps no file position and so serves
// several threads through one descriptor per file.
class RecordFileReader : public ImageReader {
 public:
  RecordFileReader(std::vector<RecordFile> files, const RecordLayout& layout)
      : files_(std::move(files)), layout_(layout) {
    for (const RecordFile& file : files_) {
      try {
        descriptors_.push_back(open_data_descriptor(file.path));
      } catch (...) {
        close_all();
        throw;
      }
    }
  }
  ~RecordFileReader() override { close_all(); }
  RecordFileReader(const RecordFileReader&) = delete;
  RecordFileReader& operator=(const RecordFileReader&) = delete;

  void read(size_t index, uint8_t* chw) const override {
    size_t file = 0;
    while (file < files_.size() && index >= files_[file].records) index -= files_[file++].records;
    if (file == files_.size()) throw DataError("image index past the end of the set");
    std::vector<uint8_t> stored(layout_.image_bytes());
    const off_t offset = off_t(layout_.header_bytes + index * layout_.record_bytes +
                               layout_.image_offset);
    size_t done = 0;
    while (done < stored.size()) {
      const ssize_t got = ::pread(descriptors_[file], stored.data() + done, stored.size() - done,
                                  offset + off_t(done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        throw DataError("cannot read " + files_[file].path + ": " +
                        (got < 0 ? std::strerror(errno) : "it ended early (truncated?)"));
      }
      done += size_t(got);
    }
    decode_record_image(stored.data(), layout_, chw,
                        files_[file].path + ": image " + std::to_string(index));
  }

  void validate_all(size_t count) const override {
    if (layout_.sample == SampleType::kUint8) return;
    std::vector<uint8_t> image(layout_.image_values());
    for (size_t i = 0; i < count; ++i) read(i, image.data());
  }

 private:
  void close_all() {
    for (int fd : descriptors_) ::close(fd);
    descriptors_.clear();
  }

  std::vector<RecordFile> files_;
  RecordLayout layout_;
  std::vector<int> descriptors_;
};

uint8_t to_byte(float value, const std::string& where, size_t position) {
  if (!std::isfinite(value) || value < 0.0f || value > 1.0f) {
    throw DataError(where + " (counting from 0) has value " + std::to_string(value) +
                    " at position " + std::to_string(position) +
                    "; float32 images must be finite and within [0, 1]");
  }
  return uint8_t(std::lround(value * 255.0f));
}

}  // namespace

void decode_record_image(const uint8_t* stored, const RecordLayout& layout, uint8_t* chw,
                         const std::string& where) {
  const size_t side = size_t(layout.side), channels = size_t(layout.channels);
  const size_t plane = side * side;
  for (size_t c = 0; c < channels; ++c) {
    for (size_t y = 0; y < side; ++y) {
      for (size_t x = 0; x < side; ++x) {
        size_t from = 0;
        switch (layout.order) {
          case PixelOrder::kChwRowMajor:
            from = c * plane + y * side + x;
            break;
          case PixelOrder::kChwColumnMajor:
            from = c * plane + x * side + y;
            break;
          case PixelOrder::kHwc:
            from = (y * side + x) * channels + c;
            break;
        }
        uint8_t& target = chw[c * plane + y * side + x];
        if (layout.sample == SampleType::kUint8) {
          target = stored[from];
        } else {
          float value;
          std::memcpy(&value, stored + 4 * from, sizeof value);
          target = to_byte(value, where, from);
        }
      }
    }
  }
}

std::shared_ptr<const ImageReader> record_reader(std::vector<RecordFile> files,
                                                 const RecordLayout& layout) {
  return std::make_shared<RecordFileReader>(std::move(files), layout);
}

}  // namespace cae
