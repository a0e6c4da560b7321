// CIFAR-10 binary: data_batch_<n>.bin, test_batch.bin, batches.meta.txt.
#include <filesystem>

#include "data/cifar_dataset.hpp"
#include "data/cifar_files.hpp"
#include "data/cifar_format.hpp"
#include "data/data_file.hpp"
#include "data/record_set.hpp"
#include "data/sources.hpp"
#include "io/memory_budget.hpp"

namespace cae {
namespace {

RecordLayout cifar10_layout() {
  RecordLayout layout;
  layout.record_bytes = cifar::kRecordBytes;
  layout.image_offset = 1;
  return layout;
}

}  // namespace

bool recognises_cifar10(const std::string& path) {
  const std::filesystem::path dir = path;
  for (const std::filesystem::path& folder : {dir, dir / cifar::kSubdirectory}) {
    if (holds_any_name(folder, {cifar::kTestFile, cifar::kMetaFile, "data_batch_1.bin"})) return true;
  }
  return false;
}

DataSplits load_cifar10_data(const std::string& path, const DataOptions& options) {
  const CifarFiles files = locate_cifar(path);
  DataSplits data;
  data.format = DataFormat::kCifar10;
  data.location = files.dir;
  data.files = files.all();
  size_t train_records = 0;
  for (const std::string& file : files.train) train_records += count_records(file);
  if (options.max_train != 0) train_records = std::min(train_records, options.max_train);
  const uint64_t train_bytes = uint64_t(train_records) * cifar::kImageBytes;
  // As settle_images: never more than the machine has (io/memory_budget.hpp).
  if (train_bytes <= options.memory_cap_bytes && train_bytes <= physical_memory_bytes()) {
    // The reader CIFAR-10 has always had, so its results stay as they were.
    CifarData loaded = load_cifar(path, options.max_train, options.max_test);
    data.train = std::move(loaded.train);
    data.test = std::move(loaded.test);
    data.class_names = std::move(loaded.class_names);
  } else {
    data.class_names = read_class_names(files.meta);
    data.train = labelled_record_set(files.train, cifar10_layout(), 0, cifar::kNumClasses,
                                     options.max_train, options.memory_cap_bytes);
    data.test = labelled_record_set({files.test}, cifar10_layout(), 0, cifar::kNumClasses,
                                    options.max_test, options.memory_cap_bytes);
  }
  data.train.class_names = data.class_names;
  data.test.class_names = data.class_names;
  return data;
}

}  // namespace cae
