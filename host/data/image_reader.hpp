#pragma once
// Images read from their files on demand, for sets too large to hold in memory
// (STL-10's unlabelled split is 2.8 GB): an ImageSet that carries a reader
// instead of pixels hands out each image by reading it when a batch asks.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cae {

class ImageReader {
 public:
  virtual ~ImageReader() = default;
  // Image `index` as CHW bytes (channels * side * side) into `chw`. Safe to
  // call from several threads at once. Throws DataError naming the file.
  virtual void read(size_t index, uint8_t* chw) const = 0;
  // Reads every image once to find what only the pixels can show (values out
  // of range, an undecodable file); a no-op where any byte is valid.
  virtual void validate_all(size_t count) const { (void)count; }
};

// How a fixed-size record's image bytes are ordered in the file.
enum class PixelOrder {
  kChwRowMajor,     // CIFAR: one plane per channel, each row after row
  kChwColumnMajor,  // STL-10: one plane per channel, each column after column
  kHwc,             // NumPy (N, H, W, C): the channels of a pixel together
};

// The sample type of the stored values; float32 ones must lie in [0, 1] and
// become round(255 * v).
enum class SampleType { kUint8, kFloat32 };

// Images stored as fixed-size records in one or more files.
struct RecordLayout {
  size_t header_bytes = 0;   // where the first record starts in each file
  size_t record_bytes = 0;   // the stride from one record to the next
  size_t image_offset = 0;   // where the image starts inside its record
  int channels = 3;
  int side = 32;
  PixelOrder order = PixelOrder::kChwRowMajor;
  SampleType sample = SampleType::kUint8;

  size_t image_values() const { return size_t(channels) * size_t(side) * size_t(side); }
  size_t image_bytes() const {
    return image_values() * (sample == SampleType::kFloat32 ? 4 : 1);
  }
};

struct RecordFile {
  std::string path;
  size_t records = 0;  // how many of its records belong to the set
};

// Image i is the i-th record counted across `files` in order.
std::shared_ptr<const ImageReader> record_reader(std::vector<RecordFile> files,
                                                 const RecordLayout& layout);

// Converts one stored image (in `layout`'s order and type) to CHW bytes.
// `where` names it in the DataError for a float outside [0, 1] or not finite.
void decode_record_image(const uint8_t* stored, const RecordLayout& layout, uint8_t* chw,
                         const std::string& where);

}  // namespace cae
