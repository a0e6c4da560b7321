// A folder of image files (PNG, JPEG, BMP; other files and names starting
// with '.' are ignored):
//   DIR/train/<class>/*, DIR/test/<class>/*   the splits as given
//   DIR/<class>/*                             split by --test-fraction, --split-seed
//   DIR/*  (or DIR/train/*, DIR/test/*)       unlabelled images
// Class names are the subfolder names, sorted; label = position in that order.
// Images are read in sorted path order. See image_file.hpp for the channel
// rule and the resizing.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "data/data_error.hpp"
#include "data/data_file.hpp"
#include "data/image_file.hpp"
#include "data/image_set_builder.hpp"
#include "data/sources.hpp"
#include "data/test_split.hpp"
#include "io/display_name.hpp"
#include "io/io_error.hpp"

namespace cae {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxSide = 4096;
constexpr size_t kMaxClasses = 256;  // labels are one byte

bool hidden(const fs::path& path) { return path.filename().string().rfind('.', 0) == 0; }

bool is_image_name(const fs::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return extension == ".png" || extension == ".jpg" || extension == ".jpeg" || extension == ".bmp";
}

struct Listing {
  std::vector<std::string> images;      // image files directly inside
  std::vector<std::string> subfolders;  // names, sorted
};

Listing list_folder(const fs::path& dir) {
  Listing listing;
  std::error_code error;
  fs::directory_iterator it(dir, error);
  if (error) throw DataError("cannot read folder " + dir.string() + ": " + error.message());
  for (const fs::directory_entry& entry : it) {
    if (hidden(entry.path())) continue;
    if (entry.is_directory(error)) {
      listing.subfolders.push_back(entry.path().filename().string());
    } else if (is_image_name(entry.path())) {
      listing.images.push_back(entry.path().string());
    }
  }
  std::sort(listing.images.begin(), listing.images.end());
  std::sort(listing.subfolders.begin(), listing.subfolders.end());
  return listing;
}

struct Collected {
  std::vector<std::string> paths;
  std::vector<uint8_t> labels;
};

// The images of one split folder: by class subfolder (names must match
// `classes` when it is non-empty), or flat.
Collected collect(const fs::path& dir, std::vector<std::string>& classes, bool& labelled) {
  const Listing listing = list_folder(dir);
  Collected collected;
  if (listing.subfolders.empty()) {
    if (listing.images.empty()) {
      throw DataError(dir.string() + " holds no images (.png, .jpg, .jpeg, .bmp) and no class subfolders");
    }
    labelled = false;
    collected.paths = listing.images;
    collected.labels.assign(listing.images.size(), 0);
    return collected;
  }
  if (!listing.images.empty()) {
    throw DataError(dir.string() + " holds both images (" + fs::path(listing.images[0]).filename().string() +
                    ") and class subfolders (" + listing.subfolders[0] +
                    "); put every image in its class folder");
  }
  if (classes.empty()) {
    // The folder names become class names in report.json, figures and
    // messages: one that could not be shown there is refused now, not when
    // the report is written after the work.
    for (const std::string& name : listing.subfolders) {
      const std::string problem = display_name_problem(name);
      if (!problem.empty()) {
        throw DataError("class folder " + printable_text((dir / name).string()) + ": the name " +
                        problem);
      }
    }
    classes = listing.subfolders;
  } else if (classes != listing.subfolders) {
    const std::set<std::string> expected(classes.begin(), classes.end());
    const std::set<std::string> found(listing.subfolders.begin(), listing.subfolders.end());
    std::string odd;
    for (const std::string& name : found) if (!expected.count(name)) odd = "has a class folder " + printable_text(name) + " that the training split lacks";
    for (const std::string& name : expected) if (!found.count(name)) odd = "lacks the class folder " + name;
    throw DataError(dir.string() + " " + odd + "; train/ and test/ need the same classes");
  }
  if (classes.size() > kMaxClasses) {
    throw DataError(dir.string() + " has " + std::to_string(classes.size()) +
                    " class folders; cae handles at most 256 classes");
  }
  for (size_t c = 0; c < classes.size(); ++c) {
    const Listing inside = list_folder(dir / classes[c]);
    if (inside.images.empty()) {
      throw DataError("class folder " + (dir / classes[c]).string() +
                      " holds no images (.png, .jpg, .jpeg, .bmp)");
    }
    for (const std::string& path : inside.images) {
      collected.paths.push_back(path);
      collected.labels.push_back(uint8_t(c));
    }
  }
  labelled = true;
  return collected;
}

class FolderReader : public ImageReader {
 public:
  FolderReader(std::vector<std::string> paths, int channels, int side, ResizeMode mode)
      : paths_(std::move(paths)), channels_(channels), side_(side), mode_(mode) {}
  void read(size_t index, uint8_t* chw) const override {
    load_image_file(paths_.at(index), channels_, side_, mode_, chw);
  }
  void validate_all(size_t count) const override {
    std::vector<uint8_t> image(size_t(channels_) * size_t(side_) * size_t(side_));
    for (size_t i = 0; i < count && i < paths_.size(); ++i) read(i, image.data());
  }

 private:
  std::vector<std::string> paths_;
  int channels_, side_;
  ResizeMode mode_;
};

struct Shape {
  int channels = 1;
  int side = 0;
};

// Channels: 3 if any image is in colour. Side: --image-size, or the first
// image's shorter side. Every header is read (not the pixels), so an
// unreadable file or one too small to crop is reported before any decoding.
Shape settle_shape(const std::vector<std::string>& paths, const DataOptions& options) {
  Shape shape;
  shape.side = options.image_size;
  for (const std::string& path : paths) {
    const ImageFileInfo info = probe_image_file(path);
    shape.channels = std::max(shape.channels, info.channels);
    if (shape.side == 0) shape.side = std::min(info.width, info.height);
    if (options.resize == ResizeMode::kCrop && (info.width < shape.side || info.height < shape.side)) {
      throw DataError(path + " is " + std::to_string(info.width) + "x" + std::to_string(info.height) +
                      ", smaller than the " + std::to_string(shape.side) + "x" +
                      std::to_string(shape.side) + " crop; use --resize box or a smaller --image-size");
    }
  }
  if (shape.side > kMaxSide) {
    throw DataError(paths.front() + " is larger than " + std::to_string(kMaxSide) + " pixels; give --image-size");
  }
  return shape;
}

ImageSet make_set(const std::vector<std::string>& paths, std::vector<uint8_t> labels,
                  const Shape& shape, const DataOptions& options) {
  auto reader = std::make_shared<FolderReader>(paths, shape.channels, shape.side, options.resize);
  ImageSet images = settle_images(reader, std::move(labels), shape.channels, shape.side,
                                  options.memory_cap_bytes);
  // A set left on disk is decoded once now, so a broken file stops the run
  // before training rather than in the middle of it.
  if (images.on_disk()) reader->validate_all(paths.size());
  return images;
}

template <typename T>
std::vector<T> pick(const std::vector<T>& values, const std::vector<size_t>& indices, size_t max) {
  std::vector<T> picked;
  for (size_t i : indices) {
    if (max != 0 && picked.size() == max) break;
    picked.push_back(values[i]);
  }
  return picked;
}

}  // namespace

bool recognises_folder(const std::string& path) {
  std::error_code error;
  if (!fs::is_directory(path, error)) return false;
  const Listing listing = list_folder(path);
  if (!listing.images.empty()) return true;
  for (const std::string& sub : listing.subfolders) {
    if (!list_folder(fs::path(path) / sub).images.empty()) return true;
    if ((sub == "train" || sub == "test") && recognises_folder((fs::path(path) / sub).string())) return true;
  }
  return false;
}

DataSplits load_folder_data(const std::string& path, const DataOptions& options) {
  std::error_code error;
  if (!fs::is_directory(path, error)) {
    throw DataError("image folder " + path + (fs::exists(path, error) ? " is not a directory" : " does not exist"));
  }
  if (options.image_size < 0 || options.image_size > kMaxSide) {
    throw DataError("--image-size must be 1.." + std::to_string(kMaxSide) + " (0 = the first image's size)");
  }
  const fs::path dir = path;
  DataSplits data;
  data.format = DataFormat::kFolder;
  data.location = path;
  // A split given as folders needs both halves: with one alone, the other
  // would be read as a class folder and blamed for holding no images.
  const bool has_train = holds_any_name(dir, {"train"}), has_test = holds_any_name(dir, {"test"});
  if (has_train != has_test) {
    throw DataError(path + " has " + (has_train ? "train/ but no test/" : "test/ but no train/") +
                    "; a split given as folders needs both");
  }
  const bool given_splits = fs::is_directory(dir / "train", error) && fs::is_directory(dir / "test", error);
  Collected train, test;
  if (given_splits) {
    bool train_labelled = false, test_labelled = false;
    train = collect(dir / "train", data.class_names, train_labelled);
    test = collect(dir / "test", data.class_names, test_labelled);
    if (train_labelled != test_labelled) {
      throw DataError(path + ": train/ and test/ must both hold class folders, or both hold images directly");
    }
    data.labelled = train_labelled;
    const size_t keep_train = options.max_train == 0 ? train.paths.size() : std::min(train.paths.size(), options.max_train);
    const size_t keep_test = options.max_test == 0 ? test.paths.size() : std::min(test.paths.size(), options.max_test);
    train.paths.resize(keep_train);
    train.labels.resize(keep_train);
    test.paths.resize(keep_test);
    test.labels.resize(keep_test);
  } else {
    Collected all = collect(dir, data.class_names, data.labelled);
    data.fraction_split = true;
    const SplitIndices split = split_by_fraction(all.labels, options.test_fraction, options.split_seed, path);
    train = {pick(all.paths, split.train, options.max_train), pick(all.labels, split.train, options.max_train)};
    test = {pick(all.paths, split.test, options.max_test), pick(all.labels, split.test, options.max_test)};
  }
  std::vector<std::string> every = train.paths;
  every.insert(every.end(), test.paths.begin(), test.paths.end());
  const Shape shape = settle_shape(every, options);
  data.train = make_set(train.paths, std::move(train.labels), shape, options);
  data.test = make_set(test.paths, std::move(test.labels), shape, options);
  data.train.class_names = data.class_names;
  data.test.class_names = data.class_names;
  data.files = std::move(every);
  return data;
}

}  // namespace cae
