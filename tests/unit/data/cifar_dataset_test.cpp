#include "data/cifar_dataset.hpp"

#include <doctest/doctest.h>

#include <filesystem>

#include "data/cifar_check.hpp"
#include "data/cifar_writer.hpp"
#include "data/data_error.hpp"

using cae::DataError;
using cae::test::ScratchDir;
namespace fs = std::filesystem;

namespace {

// Two training files (3 + 2 records) and a test file (2 records) in `dir`.
void write_small_set(const std::string& dir) {
  fs::create_directories(dir);
  cae::test::write_bytes(dir + "/data_batch_1.bin", cae::test::cifar_records({0, 1, 2}));
  cae::test::write_bytes(dir + "/data_batch_2.bin", cae::test::cifar_records({9, 9}));
  cae::test::write_bytes(dir + "/test_batch.bin", cae::test::cifar_records({5, 3}));
  cae::test::write_class_names(dir + "/batches.meta.txt");
}

}  // namespace

TEST_CASE("load_cifar reads every split in file order with labels, pixels and names") {
  ScratchDir dir;
  write_small_set(dir.path());
  const cae::CifarData data = cae::load_cifar(dir.path());
  CHECK(data.train.labels == std::vector<uint8_t>{0, 1, 2, 9, 9});
  CHECK(data.test.labels == std::vector<uint8_t>{5, 3});
  REQUIRE(data.train.pixels.size() == 5 * 3072);
  CHECK(data.train.image(2)[100] == cae::test::pixel_value(2, 100));
  CHECK(data.train.image(4)[3071] == cae::test::pixel_value(1, 3071));  // 2nd record of file 2
  REQUIRE(data.class_names.size() == 10);
  CHECK(data.class_names[9] == "truck");
}

TEST_CASE("load_cifar limits each split and accepts the archive's parent folder") {
  ScratchDir dir;
  write_small_set(dir.file("cifar-10-batches-bin"));
  const cae::CifarData data = cae::load_cifar(dir.path(), 4, 1);
  CHECK(data.train.labels == std::vector<uint8_t>{0, 1, 2, 9});
  CHECK(data.train.pixels.size() == 4 * 3072);
  CHECK(data.test.labels == std::vector<uint8_t>{5});
  CHECK(cae::load_cifar(dir.path(), 100).train.size() == 5);
}

TEST_CASE("training files are taken in numeric order and need not all exist") {
  ScratchDir dir;
  write_small_set(dir.path());
  fs::remove(dir.file("data_batch_1.bin"));
  cae::test::write_bytes(dir.file("data_batch_10.bin"), cae::test::cifar_records({4}));
  cae::test::write_bytes(dir.file("data_batch_x.bin"), "ignored");
  CHECK(cae::load_cifar(dir.path()).train.labels == std::vector<uint8_t>{9, 9, 4});
}

TEST_CASE("each problem is a one-line DataError naming the file") {
  ScratchDir dir;
  write_small_set(dir.path());
  const std::string train = dir.file("data_batch_2.bin");
  auto expect_error = [&](const std::string& message) {
    CHECK_THROWS_WITH_AS(cae::load_cifar(dir.path()), message.c_str(), DataError);
    CHECK_THROWS_WITH_AS(cae::check_cifar(dir.path()), message.c_str(), DataError);
  };

  cae::test::write_bytes(train, cae::test::cifar_records({1, 2}) + "x");
  expect_error(train + " is 6147 bytes, not a multiple of the 3073-byte record");
  cae::test::write_bytes(train, "");
  expect_error(train + " is empty");
  cae::test::write_bytes(train, cae::test::cifar_records({1, 10}));
  expect_error(train + ": record 1 (counting from 0) has label 10, not a class 0..9");
  cae::test::write_bytes(train, cae::test::cifar_records({1, 2}));

  cae::test::write_bytes(dir.file("batches.meta.txt"), "a\nb\n\nc\n");
  expect_error(dir.file("batches.meta.txt") + " names 3 classes, not 10");
  fs::remove(dir.file("batches.meta.txt"));
  expect_error("missing CIFAR-10 class names file " + dir.file("batches.meta.txt"));
  cae::test::write_class_names(dir.file("batches.meta.txt"));

  fs::remove(dir.file("data_batch_1.bin"));
  fs::remove(train);
  expect_error("missing CIFAR-10 training files: no data_batch_<n>.bin in " + dir.path());
  fs::remove(dir.file("test_batch.bin"));
  expect_error("missing CIFAR-10 test file " + dir.file("test_batch.bin"));

  CHECK_THROWS_WITH_AS(cae::load_cifar(dir.file("nowhere")),
                       ("CIFAR-10 directory " + dir.file("nowhere") + " does not exist").c_str(),
                       DataError);
}

TEST_CASE("a bad label beyond max_train is still caught by check_cifar") {
  ScratchDir dir;
  write_small_set(dir.path());
  cae::test::write_bytes(dir.file("data_batch_2.bin"), cae::test::cifar_records({1, 200}));
  CHECK(cae::load_cifar(dir.path(), 3).train.size() == 3);
  CHECK_THROWS_WITH_AS(cae::check_cifar(dir.path()), doctest::Contains("has label 200"), DataError);
}

TEST_CASE("check_cifar counts images per split and per class") {
  ScratchDir dir;
  write_small_set(dir.path());
  const cae::CifarSummary summary = cae::check_cifar(dir.path());
  CHECK(summary.dir == dir.path());
  CHECK(summary.train.images == 5);
  CHECK(summary.train.files.size() == 2);
  CHECK(summary.train.per_class[9] == 2);
  CHECK(summary.train.per_class[0] == 1);
  CHECK(summary.test.images == 2);
  CHECK(summary.test.per_class[5] == 1);
  const std::string text = cae::describe(summary);
  CHECK(text.find("train: 5 images (data_batch_1.bin, data_batch_2.bin)") != std::string::npos);
  CHECK(text.find("test:  2 images (test_batch.bin)") != std::string::npos);
  CHECK(text.find("9   truck             2        0") != std::string::npos);
}
