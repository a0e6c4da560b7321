#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "data/cifar_format.hpp"
#include "data/image_reader.hpp"

namespace cae {

// Images and their labels, whatever source they came from: image i occupies
// pixels[i * image_bytes(), (i + 1) * image_bytes()) in CHW order (one plane
// per channel, each row-major), 8 bits per sample. Every image of a set has
// the same shape; sources that read other sizes resize or crop on the way in.
// A set larger than the memory cap keeps its pixels on disk instead: `pixels`
// is empty and `reader` reads each image when a batch asks for it (labels are
// always in memory).
struct ImageSet {
  std::vector<uint8_t> pixels;
  std::vector<uint8_t> labels;
  int channels = int(cifar::kChannels);
  int side = int(cifar::kImageSide);  // images are square: side x side
  // Class names indexed by label, when the source names them (a folder's
  // subfolders, CIFAR's meta file); empty when it does not.
  std::vector<std::string> class_names;
  std::shared_ptr<const ImageReader> reader;  // set only when the pixels stay on disk

  size_t size() const { return labels.size(); }
  size_t image_bytes() const { return size_t(channels) * size_t(side) * size_t(side); }
  bool on_disk() const { return reader != nullptr; }
  // In-memory sets only (see copy_image for either kind).
  const uint8_t* image(size_t i) const { return pixels.data() + i * image_bytes(); }
  // Image i's CHW bytes into `chw` (image_bytes() of them), from memory or disk.
  void copy_image(size_t i, uint8_t* chw) const {
    if (reader) {
      reader->read(i, chw);
    } else {
      std::memcpy(chw, image(i), image_bytes());
    }
  }
};

}  // namespace cae
