#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "data/data_source.hpp"
#include "io/scratch_dir.hpp"
#include "official_layouts.hpp"
#include "patterned_images.hpp"

using namespace cae;
using namespace cae::test;
namespace fs = std::filesystem;

namespace {

// Replaces the float at `index` (counting values after the header) in `npy`.
void poke_float(std::string& npy, size_t index, float value) {
  const size_t data_offset = npy.find('\n') + 1;  // the header ends with a newline
  std::memcpy(npy.data() + data_offset + 4 * index, &value, sizeof value);
}

}  // namespace

TEST_CASE("npy: (N, H, W, C) uint8 images become CHW; labels and classes.txt name the classes") {
  ScratchDir dir;
  const fs::path folder = dir.path();
  const ImageSet train = patterned_images({0, 1, 1}, 3, 8), test = patterned_images({1, 0}, 3, 8);
  write_file(folder / "train_images.npy", npy_images(train, false));
  write_file(folder / "test_images.npy", npy_images(test, false));
  write_file(folder / "train_labels.npy", npy_labels(train.labels));
  write_file(folder / "test_labels.npy", npy_labels(test.labels));
  write_file(folder / "classes.txt", "cats\ndogs\n");
  CHECK(sniff_data_format(dir.path()) == DataFormat::kNpy);
  for (uint64_t cap : {kDefaultMemoryCapBytes, uint64_t(0)}) {
    DataOptions options;
    options.memory_cap_bytes = cap;
    const DataSplits data = load_data(dir.path(), options);
    CHECK(data.train.side == 8);
    CHECK(data.train.labels == std::vector<uint8_t>{0, 1, 1});
    CHECK(data.class_names == std::vector<std::string>{"cats", "dogs"});
    CHECK(same_images(data.train, train));
    CHECK(same_images(data.test, test));
  }
}

TEST_CASE("npy: float32 in [0, 1] is held as round(255 v); NaN, infinity and 1.5 are refused") {
  ScratchDir dir;
  const ImageSet images = patterned_images({0, 0, 0, 0, 0}, 1, 4);
  std::string npy = npy_images(images, true);
  write_file(dir.file("x.npy"), npy);
  DataOptions options;
  const DataSplits data = load_data(dir.file("x.npy"), options);
  CHECK_FALSE(data.labelled);
  CHECK(data.train.size() + data.test.size() == 5);
  CHECK(data.train.channels == 1);
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), 1.5f, -0.25f}) {
    std::string broken = npy;
    poke_float(broken, 17, bad);
    write_file(dir.file("bad.npy"), broken);
    CHECK(data_error_of([&] { load_data(dir.file("bad.npy"), options); })
              .find("bad.npy: image 1 (counting from 0) has value") != std::string::npos);
  }
}

TEST_CASE("npy: wrong shapes, types and label counts are one-line errors naming the file") {
  ScratchDir dir;
  const fs::path folder = dir.path();
  const ImageSet images = patterned_images({0, 1, 0, 1}, 3, 4);
  write_file(folder / "images.npy", npy_header("<f8", "(4, 4, 4, 3)") + std::string(4 * 48 * 8, '\0'));
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); }).find("holds '<f8' values") != std::string::npos);
  write_file(folder / "images.npy", npy_header("|u1", "(4, 4, 5, 3)") + std::string(4 * 60, '\0'));
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); }).find("4x5 images") != std::string::npos);
  write_file(folder / "images.npy", npy_header("|u1", "(4, 4, 4, 2)") + std::string(4 * 32, '\0'));
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); }).find("has 2 channels per pixel") != std::string::npos);
  write_file(folder / "images.npy", npy_header("|u1", "(5, 4, 4, 3)") + std::string(4 * 48, '\0'));
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); }).find("declares 5 images but its data holds 4") != std::string::npos);
  write_file(folder / "images.npy", npy_images(images, false));
  write_file(folder / "labels.npy", npy_labels({0, 1, 0}));
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); }).find("labels.npy holds 3 labels for 4 images") != std::string::npos);
  write_file(folder / "labels.npy", npy_labels({0, 1, 0, 1}));
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); })
            .find("leaves 4 for training and 0 for testing") != std::string::npos);
  DataOptions halves;
  halves.test_fraction = 0.5;
  const DataSplits data = load_data(dir.path(), halves);
  CHECK(data.class_names == std::vector<std::string>{"0", "1"});
  CHECK(data.train.size() == 2);
  CHECK(data.test.size() == 2);
}
