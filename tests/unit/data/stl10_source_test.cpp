#include <doctest/doctest.h>

#include "data/data_source.hpp"
#include "io/scratch_dir.hpp"
#include "official_layouts.hpp"
#include "patterned_images.hpp"

using namespace cae;
using namespace cae::test;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kNames = {"airplane", "bird", "car",    "cat",  "deer",
                                         "dog",      "horse", "monkey", "ship", "truck"};

void write_stl10(const fs::path& dir, const ImageSet& train, const ImageSet& test,
                 const ImageSet& unlabelled) {
  write_file(dir / "train_X.bin", stl10_images(train));
  write_file(dir / "train_y.bin", stl10_labels(train.labels));
  write_file(dir / "test_X.bin", stl10_images(test));
  write_file(dir / "test_y.bin", stl10_labels(test.labels));
  write_file(dir / "unlabeled_X.bin", stl10_images(unlabelled));
  write_file(dir / "class_names.txt", lines(kNames));
}

DataOptions stl10_options(uint64_t cap = kDefaultMemoryCapBytes) {
  DataOptions options;
  options.format = DataFormat::kStl10;
  options.memory_cap_bytes = cap;
  return options;
}

}  // namespace

TEST_CASE("STL-10: column-major planes become CHW rows, labels 1..10 become 0..9") {
  ScratchDir dir;
  const ImageSet train = patterned_images({0, 9, 4}, 3, 96), test = patterned_images({2, 3}, 3, 96);
  const ImageSet unlabelled = patterned_images({0, 0, 0, 0}, 3, 96);
  write_stl10(fs::path(dir.path()) / "stl10_binary", train, test, unlabelled);
  for (uint64_t cap : {kDefaultMemoryCapBytes, uint64_t(0)}) {
    CAPTURE(cap);
    DataOptions options = stl10_options(cap);
    options.unlabelled = true;
    const DataSplits data = load_data(dir.path(), options);  // finds stl10_binary/
    CHECK(data.train.side == 96);
    CHECK(data.train.on_disk() == (cap == 0));
    CHECK(data.train.labels == std::vector<uint8_t>{0, 9, 4});
    CHECK(data.test.labels == std::vector<uint8_t>{2, 3});
    CHECK(same_images(data.train, train));
    CHECK(same_images(data.test, test));
    CHECK(same_images(data.unlabelled, unlabelled));
    CHECK(data.class_names == kNames);
  }
  CHECK(sniff_data_format(dir.path()) == DataFormat::kStl10);
}

TEST_CASE("STL-10: the unlabelled split is read only when asked for, and --samples caps it") {
  ScratchDir dir;
  const ImageSet some = patterned_images({1, 2}, 3, 96);
  write_stl10(dir.path(), some, some, patterned_images({0, 0, 0}, 3, 96));
  DataOptions options = stl10_options();
  CHECK(load_data(dir.path(), options).unlabelled.size() == 0);
  options.unlabelled = true;
  options.max_train = 2;
  CHECK(load_data(dir.path(), options).unlabelled.size() == 2);
}

TEST_CASE("STL-10: bad labels, mismatched counts and truncated image files are one-line errors") {
  ScratchDir dir;
  const ImageSet some = patterned_images({1, 2}, 3, 96);
  write_stl10(dir.path(), some, some, some);
  write_file(fs::path(dir.path()) / "train_y.bin", std::string("\x01\x0b", 2));
  CHECK(data_error_of([&] { load_data(dir.path(), stl10_options()); })
            .find("train_y.bin: label 1 (counting from 0) is 11, not a class 1..10") != std::string::npos);
  write_file(fs::path(dir.path()) / "train_y.bin", std::string("\x01", 1));
  CHECK(data_error_of([&] { load_data(dir.path(), stl10_options()); })
            .find("holds 1 labels but") != std::string::npos);
  write_file(fs::path(dir.path()) / "train_y.bin", stl10_labels(some.labels));
  write_file(fs::path(dir.path()) / "test_X.bin", stl10_images(some).substr(0, 30000));
  CHECK(data_error_of([&] { load_data(dir.path(), stl10_options()); })
            .find("test_X.bin is 30000 bytes, not a multiple of the 27648-byte record") != std::string::npos);
}
