// STL-10 binary (the official stl10_binary/ folder): train_X.bin, test_X.bin
// and unlabeled_X.bin hold 96x96 RGB images of 27,648 bytes each, one plane
// per channel with each plane stored column after column (the layout of the
// MATLAB arrays the set was made from); train_y.bin and test_y.bin hold one
// label byte per image, 1..10; class_names.txt names the classes.
#include <filesystem>

#include "data/data_error.hpp"
#include "data/data_file.hpp"
#include "data/dataset_folder.hpp"
#include "data/image_set_builder.hpp"
#include "data/record_set.hpp"
#include "data/sources.hpp"
#include "io/binary_file.hpp"

namespace cae {
namespace {

namespace fs = std::filesystem;

constexpr char kStl10Subdirectory[] = "stl10_binary";
constexpr int kSide = 96;
constexpr size_t kClasses = 10;

RecordLayout stl10_layout() {
  RecordLayout layout;
  layout.channels = 3;
  layout.side = kSide;
  layout.record_bytes = size_t(3) * kSide * kSide;
  layout.order = PixelOrder::kChwColumnMajor;
  return layout;
}

bool holds_stl10(const fs::path& dir) {
  return holds_any_name(dir, {"test_X.bin", "unlabeled_X.bin", "train_X.bin"});
}

void require_file(const fs::path& path, const std::string& what) {
  require_data_file(path, "STL-10 " + what);
}

// One label byte per image, 1..10 in the file, 0..9 in cae.
std::vector<uint8_t> read_labels(const fs::path& path, size_t images, const fs::path& image_file) {
  const std::string bytes = read_binary_file(path.string());
  if (bytes.size() != images) {
    throw DataError(path.string() + " holds " + std::to_string(bytes.size()) + " labels but " +
                    image_file.string() + " holds " + std::to_string(images) + " images");
  }
  std::vector<uint8_t> labels(images);
  for (size_t i = 0; i < images; ++i) {
    const auto label = uint8_t(bytes[i]);
    if (label < 1 || label > kClasses) {
      throw DataError(path.string() + ": label " + std::to_string(i) + " (counting from 0) is " +
                      std::to_string(label) + ", not a class 1..10");
    }
    labels[i] = uint8_t(label - 1);
  }
  return labels;
}

ImageSet labelled_split(const fs::path& dir, const std::string& split, size_t max,
                        uint64_t cap, std::vector<std::string>& files) {
  const fs::path images = dir / (split + "_X.bin"), labels = dir / (split + "_y.bin");
  require_file(images, split + " images file");
  require_file(labels, split + " labels file");
  const size_t count = count_file_records(images.string(), stl10_layout());
  std::vector<uint8_t> values = read_labels(labels, count, images);
  const size_t kept = max == 0 ? count : std::min(count, max);
  values.resize(kept);
  files.push_back(images.string());
  files.push_back(labels.string());
  return settle_images(record_reader({{images.string(), kept}}, stl10_layout()), std::move(values),
                       3, kSide, cap);
}

}  // namespace

bool recognises_stl10(const std::string& path) {
  return holds_stl10(path) || holds_stl10(fs::path(path) / kStl10Subdirectory);
}

DataSplits load_stl10_data(const std::string& path, const DataOptions& options) {
  const fs::path dir = dataset_folder(path, kStl10Subdirectory, holds_stl10, "STL-10", "test_X.bin");
  DataSplits data;
  data.format = DataFormat::kStl10;
  data.location = dir.string();
  data.class_names = read_names_file(dir / "class_names.txt", kClasses, "STL-10");
  data.files.push_back((dir / "class_names.txt").string());
  data.train = labelled_split(dir, "train", options.max_train, options.memory_cap_bytes, data.files);
  data.test = labelled_split(dir, "test", options.max_test, options.memory_cap_bytes, data.files);
  data.train.class_names = data.class_names;
  data.test.class_names = data.class_names;
  if (options.unlabelled) {
    const fs::path images = dir / "unlabeled_X.bin";
    require_file(images, "unlabelled images file");
    size_t count = count_file_records(images.string(), stl10_layout());
    if (options.max_train != 0) count = std::min(count, options.max_train);
    data.unlabelled = settle_images(record_reader({{images.string(), count}}, stl10_layout()),
                                    std::vector<uint8_t>(count, 0), 3, kSide,
                                    options.memory_cap_bytes);
    data.files.push_back(images.string());
  }
  return data;
}

}  // namespace cae
