#pragma once
// Writers of small data sets in the official layouts cae reads (CIFAR-100
// binary, STL-10 binary, NumPy arrays, folders of PNG files), for tests that
// must not need the network. Images are given as CHW bytes (ImageSet's form)
// and written the way each format stores them.

#include <stb_image_write.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/image_set.hpp"

namespace cae::test {

inline void write_file(const std::filesystem::path& path, const std::string& bytes) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

inline std::string lines(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += name + "\n";
  return text;
}

// CIFAR-100 records: coarse label, fine label, 3,072 image bytes.
inline std::string cifar100_records(const ImageSet& images, const std::vector<uint8_t>& coarse) {
  std::string bytes;
  for (size_t i = 0; i < images.size(); ++i) {
    bytes += char(coarse[i]);
    bytes += char(images.labels[i]);
    bytes.append(reinterpret_cast<const char*>(images.image(i)), images.image_bytes());
  }
  return bytes;
}

// STL-10 images: each channel plane stored column after column.
inline std::string stl10_images(const ImageSet& images) {
  std::string bytes;
  const size_t side = size_t(images.side), plane = side * side;
  for (size_t i = 0; i < images.size(); ++i) {
    const uint8_t* chw = images.image(i);
    for (size_t c = 0; c < size_t(images.channels); ++c) {
      for (size_t x = 0; x < side; ++x) {
        for (size_t y = 0; y < side; ++y) bytes += char(chw[c * plane + y * side + x]);
      }
    }
  }
  return bytes;
}

// STL-10 labels: one byte per image, 1..10.
inline std::string stl10_labels(const std::vector<uint8_t>& labels) {
  std::string bytes;
  for (uint8_t label : labels) bytes += char(label + 1);
  return bytes;
}

inline std::string npy_header(const std::string& descr, const std::string& shape) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  std::string bytes("\x93NUMPY\x01\x00", 8);
  bytes += char(dict.size() & 0xff);
  bytes += char(dict.size() >> 8);
  return bytes + dict;
}

// (N, H, W, C) uint8, or float32 values v / 255 when `as_float`.
inline std::string npy_images(const ImageSet& images, bool as_float) {
  const size_t side = size_t(images.side), channels = size_t(images.channels);
  std::string bytes = npy_header(as_float ? "<f4" : "|u1",
                                 "(" + std::to_string(images.size()) + ", " + std::to_string(side) +
                                     ", " + std::to_string(side) + ", " + std::to_string(channels) + ")");
  for (size_t i = 0; i < images.size(); ++i) {
    for (size_t y = 0; y < side; ++y) {
      for (size_t x = 0; x < side; ++x) {
        for (size_t c = 0; c < channels; ++c) {
          const uint8_t value = images.image(i)[(c * side + y) * side + x];
          if (as_float) {
            const float f = float(value) / 255.0f;
            bytes.append(reinterpret_cast<const char*>(&f), sizeof f);
          } else {
            bytes += char(value);
          }
        }
      }
    }
  }
  return bytes;
}

inline std::string npy_labels(const std::vector<uint8_t>& labels) {
  std::string bytes = npy_header("<i8", "(" + std::to_string(labels.size()) + ",)");
  for (uint8_t label : labels) {
    const int64_t value = label;
    bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  return bytes;
}

// Image i as a PNG under dir/<class name>/ (or dir/ when class_names is empty).
inline void write_png_images(const ImageSet& images, const std::vector<std::string>& class_names,
                             const std::filesystem::path& dir) {
  const int side = images.side, channels = images.channels;
  const size_t plane = size_t(side) * size_t(side);
  std::vector<uint8_t> interleaved(plane * size_t(channels));
  for (size_t i = 0; i < images.size(); ++i) {
    for (size_t p = 0; p < plane; ++p) {
      for (int c = 0; c < channels; ++c) interleaved[p * size_t(channels) + size_t(c)] = images.image(i)[size_t(c) * plane + p];
    }
    const std::filesystem::path folder =
        class_names.empty() ? dir : dir / class_names.at(images.labels[i]);
    std::filesystem::create_directories(folder);
    const std::string path = (folder / ("image" + std::to_string(i) + ".png")).string();
    if (!stbi_write_png(path.c_str(), side, side, channels, interleaved.data(), side * channels)) {
      throw std::runtime_error("cannot write " + path);
    }
  }
}

}  // namespace cae::test
