#pragma once
// Where the images come from: one interface over every supported format,
// chosen by `--data PATH` (the format sniffed from what PATH holds) or forced
// with `--data-format`. Every source yields the same DataSplits; a split
// larger than the memory cap keeps its pixels on disk (ImageSet::reader).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data/image_set.hpp"

namespace cae {

enum class DataFormat { kAuto, kCifar10, kCifar100, kStl10, kFolder, kNpy, kSynthetic };

// "auto", "cifar10", "cifar100", "stl10", "folder", "npy", "synthetic"; anything
// else throws std::invalid_argument naming the accepted ones.
DataFormat parse_data_format(const std::string& name);
const char* data_format_name(DataFormat format);

// How a folder's images of another size reach --image-size: the whole image
// box-filtered to the square (aspect not kept), or its centre cropped.
enum class ResizeMode { kBox, kCrop };
ResizeMode parse_resize_mode(const std::string& name);
const char* resize_mode_name(ResizeMode mode);

constexpr uint64_t kDefaultMemoryCapBytes = uint64_t(2048) << 20;  // 2 GiB

struct DataOptions {
  DataFormat format = DataFormat::kAuto;
  bool coarse_labels = false;  // CIFAR-100: the 20 superclasses instead of the 100 classes
  bool unlabelled = false;     // also load the unlabelled split (STL-10's unlabeled_X.bin)
  int image_size = 0;          // folder: side of the square images (0 = first image's shorter side)
  ResizeMode resize = ResizeMode::kBox;
  double test_fraction = 0.2;  // folder / npy without a test split of their own
  uint64_t split_seed = 1;
  uint64_t memory_cap_bytes = kDefaultMemoryCapBytes;  // larger splits stay on disk
  size_t max_train = 0;  // keep only the first images of a split (0 = all)
  size_t max_test = 0;
};

struct DataSplits {
  DataFormat format = DataFormat::kAuto;
  std::string location;  // the folder or file the images came from
  ImageSet train;
  ImageSet test;
  ImageSet unlabelled;  // empty unless asked for and the source has one
  // Indexed by label; empty for a source without labels (a flat folder, an
  // .npy array without labels.npy), whose labels are all 0.
  std::vector<std::string> class_names;
  bool labelled = true;
  // The source split one set into train and test by --test-fraction and
  // --split-seed (a folder without train/ and test/, a single images.npy).
  bool fraction_split = false;
  std::vector<std::string> files;  // every file the images were read from
};

// The format of what `path` holds. Throws DataError when it is none of them.
DataFormat sniff_data_format(const std::string& path);

// Reads `path` in `options.format` (sniffed when kAuto). Throws DataError with
// one line naming the file and the problem.
DataSplits load_data(const std::string& path, const DataOptions& options);

}  // namespace cae
