// NumPy arrays of images: (N, H, W, C) with C = 1 or 3, or (N, H, W) for
// grayscale; uint8 ('|u1'), or float32 ('<f4') with every value finite and in
// [0, 1] (held as round(255 * v), like every source's 8-bit pixels). H must
// equal W. `--data` names one such .npy (unlabelled images) or a folder with
//   images.npy [labels.npy]                       split by --test-fraction, or
//   train_images.npy test_images.npy [train_labels.npy test_labels.npy]
// and optionally classes.txt (one class name per line, label order).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "data/data_error.hpp"
#include "data/data_file.hpp"
#include "data/dataset_folder.hpp"
#include "data/image_set_builder.hpp"
#include "data/record_set.hpp"
#include "data/sources.hpp"
#include "data/test_split.hpp"
#include "io/io_error.hpp"
#include "io/npy.hpp"
#include "io/npy_header.hpp"

namespace cae {
namespace {

namespace fs = std::filesystem;

std::string read_prefix(const std::string& path, size_t max_bytes) {
  const UniqueFile file = open_data_file(path);
  std::string bytes(max_bytes, '\0');
  bytes.resize(std::fread(bytes.data(), 1, max_bytes, file.get()));
  return bytes;
}

struct ImageArray {
  std::string path;
  size_t count = 0;
  RecordLayout layout;
  std::shared_ptr<const ImageReader> reader;
};

// The header of an image array, checked against its file size; no pixel read.
ImageArray open_image_array(const std::string& path) {
  const NpyHeader header = parse_npy_header(read_prefix(path, size_t(1) << 20), path);
  if (header.fortran_order) throw DataError(path + ": Fortran-ordered arrays are not read; save it in C order");
  ImageArray array;
  array.path = path;
  RecordLayout& layout = array.layout;
  if (header.descr == "|u1" || header.descr == "<u1") {
    layout.sample = SampleType::kUint8;
  } else if (header.descr == "<f4") {
    layout.sample = SampleType::kFloat32;
  } else {
    throw DataError(path + " holds '" + printable_text(header.descr) +
                    "' values; image arrays must be uint8 or float32 in [0, 1]");
  }
  const std::vector<uint64_t>& shape = header.shape;
  if (shape.size() != 3 && shape.size() != 4) {
    throw DataError(path + " has " + std::to_string(shape.size()) +
                    " dimensions; image arrays are (N, H, W, C) or (N, H, W)");
  }
  const uint64_t channels = shape.size() == 4 ? shape[3] : 1;
  if (channels != 1 && channels != 3) {
    throw DataError(path + " has " + std::to_string(channels) +
                    " channels per pixel; cae reads 1 (grayscale) or 3 (RGB)");
  }
  if (shape[1] != shape[2] || shape[1] == 0 || shape[1] > 4096) {
    throw DataError(path + " holds " + std::to_string(shape[1]) + "x" + std::to_string(shape[2]) +
                    " images; cae reads square images up to 4096x4096");
  }
  if (shape[0] == 0) throw DataError(path + " holds no images (N = 0)");
  layout.channels = int(channels);
  layout.side = int(shape[1]);
  layout.order = PixelOrder::kHwc;
  layout.header_bytes = header.data_offset;
  layout.record_bytes = layout.image_bytes();
  array.count = count_file_records(path, layout);
  if (array.count != shape[0]) {
    throw DataError(path + " declares " + std::to_string(shape[0]) + " images but its data holds " +
                    std::to_string(array.count));
  }
  array.reader = record_reader({{path, array.count}}, layout);
  // Floats are checked up front (a pass over the file, never all of it in
  // memory), so a bad value stops the run before training, not during it.
  array.reader->validate_all(array.count);
  return array;
}

std::vector<uint8_t> read_labels(const std::string& path, size_t expected) {
  const std::vector<int64_t> values = read_npy_integers(path);
  if (values.size() != expected) {
    throw DataError(path + " holds " + std::to_string(values.size()) + " labels for " +
                    std::to_string(expected) + " images");
  }
  std::vector<uint8_t> labels(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] < 0 || values[i] > 255) {
      throw DataError(path + ": label " + std::to_string(i) + " (counting from 0) is " +
                      std::to_string(values[i]) + ", not a class 0..255");
    }
    labels[i] = uint8_t(values[i]);
  }
  return labels;
}

std::vector<std::string> class_names(const fs::path& dir, size_t classes) {
  const fs::path path = dir / "classes.txt";
  if (holds_any_name(dir, {"classes.txt"})) {
    require_data_file(path, "class names file");
    // Read like every class-names file: each name checked now, not when the
    // report is written after training.
    return read_names_file(path, classes, "NumPy", NameCount::kAtLeast);
  }
  std::vector<std::string> names;
  for (size_t c = 0; c < classes; ++c) names.push_back(std::to_string(c));
  return names;
}

ImageSet settle(const ImageArray& array, std::vector<size_t> indices, std::vector<uint8_t> labels,
                uint64_t cap) {
  return settle_images(subset_reader(array.reader, std::move(indices)), std::move(labels),
                       array.layout.channels, array.layout.side, cap);
}

std::vector<size_t> first_indices(size_t count, size_t max) {
  std::vector<size_t> indices(max == 0 ? count : std::min(count, max));
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = i;
  return indices;
}

std::vector<uint8_t> pick(const std::vector<uint8_t>& labels, const std::vector<size_t>& indices) {
  std::vector<uint8_t> picked;
  for (size_t i : indices) picked.push_back(labels[i]);
  return picked;
}

size_t class_count(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  uint8_t highest = 0;
  for (uint8_t label : a) highest = std::max(highest, label);
  for (uint8_t label : b) highest = std::max(highest, label);
  return size_t(highest) + 1;
}

void truncate(std::vector<size_t>& indices, size_t max) {
  if (max != 0 && indices.size() > max) indices.resize(max);
}

}  // namespace

bool recognises_npy(const std::string& path) {
  const fs::path p = path;
  if (p.extension() == ".npy") return true;
  return holds_any_name(p, {"images.npy", "labels.npy", "train_images.npy", "test_images.npy"});
}

DataSplits load_npy_data(const std::string& path, const DataOptions& options) {
  const fs::path given = path;
  std::error_code error;
  if (!fs::exists(given, error)) throw DataError(".npy data " + path + " does not exist");
  DataSplits data;
  data.format = DataFormat::kNpy;
  data.location = path;
  const uint64_t cap = options.memory_cap_bytes;
  // Files are found by their names and then required to be files, so a
  // folder or FIFO in a file's place is named as such.
  if (holds_any_name(given, {"train_images.npy", "test_images.npy"})) {
    for (const char* name : {"train_images.npy", "test_images.npy"}) {
      require_data_file(given / name, ".npy image array");
    }
    const ImageArray train = open_image_array((given / "train_images.npy").string());
    const ImageArray test = open_image_array((given / "test_images.npy").string());
    if (train.layout.side != test.layout.side || train.layout.channels != test.layout.channels) {
      throw DataError(test.path + " holds " + std::to_string(test.layout.channels) + "x" +
                      std::to_string(test.layout.side) + "x" + std::to_string(test.layout.side) +
                      " images but " + train.path + " holds " +
                      std::to_string(train.layout.channels) + "x" +
                      std::to_string(train.layout.side) + "x" + std::to_string(train.layout.side));
    }
    const fs::path train_labels = given / "train_labels.npy", test_labels = given / "test_labels.npy";
    data.labelled = holds_any_name(given, {"train_labels.npy", "test_labels.npy"});
    std::vector<uint8_t> a(train.count, 0), b(test.count, 0);
    if (data.labelled) {
      require_data_file(train_labels, ".npy label array");
      require_data_file(test_labels, ".npy label array");
      a = read_labels(train_labels.string(), train.count);
      b = read_labels(test_labels.string(), test.count);
      data.class_names = class_names(given, class_count(a, b));
      data.files = {train_labels.string(), test_labels.string()};
    }
    std::vector<size_t> train_indices = first_indices(train.count, options.max_train);
    std::vector<size_t> test_indices = first_indices(test.count, options.max_test);
    a.resize(train_indices.size());
    b.resize(test_indices.size());
    data.train = settle(train, std::move(train_indices), std::move(a), cap);
    data.test = settle(test, std::move(test_indices), std::move(b), cap);
    data.files.push_back(train.path);
    data.files.push_back(test.path);
  } else {
    const bool single_file = !fs::is_directory(given, error);
    const fs::path images_path = single_file ? given : given / "images.npy";
    require_data_file(images_path, ".npy image array");
    const ImageArray images = open_image_array(images_path.string());
    const fs::path labels_path = images_path.parent_path() / "labels.npy";
    data.labelled = !single_file && holds_any_name(given, {"labels.npy"});
    std::vector<uint8_t> labels(images.count, 0);
    if (data.labelled) {
      require_data_file(labels_path, ".npy label array");
      labels = read_labels(labels_path.string(), images.count);
      data.class_names = class_names(given, class_count(labels, {}));
      data.files.push_back(labels_path.string());
    }
    SplitIndices split =
        split_by_fraction(labels, options.test_fraction, options.split_seed, images.path);
    data.fraction_split = true;
    truncate(split.train, options.max_train);
    truncate(split.test, options.max_test);
    std::vector<uint8_t> a = pick(labels, split.train), b = pick(labels, split.test);
    data.train = settle(images, std::move(split.train), std::move(a), cap);
    data.test = settle(images, std::move(split.test), std::move(b), cap);
    data.files.push_back(images.path);
  }
  data.train.class_names = data.class_names;
  data.test.class_names = data.class_names;
  return data;
}

}  // namespace cae
