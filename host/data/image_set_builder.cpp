#include "data/image_set_builder.hpp"

#include <algorithm>
#include <utility>

#include "io/memory_budget.hpp"

namespace cae {
namespace {

class SubsetReader : public ImageReader {
 public:
  SubsetReader(std::shared_ptr<const ImageReader> reader, std::vector<size_t> indices)
      : reader_(std::move(reader)), indices_(std::move(indices)) {}
  void read(size_t index, uint8_t* chw) const override { reader_->read(indices_.at(index), chw); }
  void validate_all(size_t count) const override {
    // The whole underlying set: a subset of a validated set is valid.
    size_t highest = 0;
    for (size_t i = 0; i < count && i < indices_.size(); ++i) highest = std::max(highest, indices_[i] + 1);
    reader_->validate_all(highest);
  }

 private:
  std::shared_ptr<const ImageReader> reader_;
  std::vector<size_t> indices_;
};

}  // namespace

ImageSet settle_images(std::shared_ptr<const ImageReader> reader, std::vector<uint8_t> labels,
                       int channels, int side, uint64_t memory_cap_bytes) {
  ImageSet images;
  images.channels = channels;
  images.side = side;
  images.labels = std::move(labels);
  const uint64_t bytes = uint64_t(images.size()) * images.image_bytes();
  // A cap raised past the machine's memory (io/memory_budget.hpp) would make
  // the pixels' size, which comes from the files, an allocation that cannot
  // succeed: such a split stays on disk too, with the same results.
  if (bytes > memory_cap_bytes || bytes > physical_memory_bytes()) {
    images.reader = std::move(reader);
    return images;
  }
  images.pixels.resize(size_t(bytes));
  for (size_t i = 0; i < images.size(); ++i) {
    reader->read(i, images.pixels.data() + i * images.image_bytes());
  }
  return images;
}

std::shared_ptr<const ImageReader> subset_reader(std::shared_ptr<const ImageReader> reader,
                                                 std::vector<size_t> indices) {
  return std::make_shared<SubsetReader>(std::move(reader), std::move(indices));
}

void keep_first(ImageSet& images, size_t max) {
  if (max == 0 || images.size() <= max) return;
  images.labels.resize(max);
  if (!images.on_disk()) images.pixels.resize(max * images.image_bytes());
}

}  // namespace cae
