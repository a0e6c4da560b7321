// CIFAR-100 binary (the official cifar-100-binary/ folder): train.bin and
// test.bin hold 3,074-byte records -- the coarse label (0..19), the fine label
// (0..99), then a 32x32 image as R, G and B planes -- and
// coarse_label_names.txt / fine_label_names.txt name the classes.
#include <filesystem>

#include "data/data_file.hpp"
#include "data/dataset_folder.hpp"
#include "data/record_set.hpp"
#include "data/sources.hpp"

namespace cae {
namespace {

namespace fs = std::filesystem;

constexpr char kCifar100Subdirectory[] = "cifar-100-binary";
constexpr size_t kCoarseClasses = 20;
constexpr size_t kFineClasses = 100;

RecordLayout cifar100_layout() {
  RecordLayout layout;
  layout.record_bytes = 2 + cifar::kImageBytes;
  layout.image_offset = 2;
  return layout;
}

bool holds_cifar100(const fs::path& dir) {
  return holds_any_name(dir, {"train.bin", "test.bin", "fine_label_names.txt", "coarse_label_names.txt"});
}

}  // namespace

bool recognises_cifar100(const std::string& path) {
  return holds_cifar100(path) || holds_cifar100(fs::path(path) / kCifar100Subdirectory);
}

DataSplits load_cifar100_data(const std::string& path, const DataOptions& options) {
  const fs::path dir =
      dataset_folder(path, kCifar100Subdirectory, holds_cifar100, "CIFAR-100", "train.bin and test.bin");
  const bool coarse = options.coarse_labels;
  const size_t classes = coarse ? kCoarseClasses : kFineClasses;
  const fs::path names = dir / (coarse ? "coarse_label_names.txt" : "fine_label_names.txt");
  DataSplits data;
  data.format = DataFormat::kCifar100;
  data.location = dir.string();
  data.class_names = read_names_file(names, classes, "CIFAR-100");
  const size_t label_offset = coarse ? 0 : 1;
  require_data_file(dir / "train.bin", "CIFAR-100 training file");
  require_data_file(dir / "test.bin", "CIFAR-100 test file");
  data.train = labelled_record_set({(dir / "train.bin").string()}, cifar100_layout(), label_offset,
                                   classes, options.max_train, options.memory_cap_bytes);
  data.test = labelled_record_set({(dir / "test.bin").string()}, cifar100_layout(), label_offset,
                                  classes, options.max_test, options.memory_cap_bytes);
  data.train.class_names = data.class_names;
  data.test.class_names = data.class_names;
  data.files = {(dir / "train.bin").string(), (dir / "test.bin").string(), names.string()};
  return data;
}

}  // namespace cae
