// The data/ layer's part of the reliability contract (docs/reliability.md):
// a generated set never silently replaces existing CIFAR-10 files, something
// named like a CIFAR-10 file that is not a file is named as such, and a bad
// record leaves the loaded set as it was.
#include <doctest/doctest.h>

#include <filesystem>

#include "data/cifar_dataset.hpp"
#include "data/cifar_files.hpp"
#include "data/cifar_writer.hpp"
#include "data/data_error.hpp"
#include "data/synthetic_dataset.hpp"

using cae::DataError;
using cae::SyntheticOverwrite;
using cae::test::ScratchDir;
namespace fs = std::filesystem;

TEST_CASE("synthetic data never replaces existing CIFAR-10 files unless asked to") {
  for (const char* existing :
       {"data_batch_1.bin", "data_batch_7.bin", "test_batch.bin", "batches.meta.txt"}) {
    ScratchDir dir;
    const std::string users = cae::test::cifar_records({4, 2});
    cae::test::write_bytes(dir.file(existing), users);
    CHECK_THROWS_AS(cae::write_synthetic_cifar(dir.path(), 20, 10, 1), DataError);
    CHECK(dir.listing() == existing);  // nothing written
    CHECK(cae::test::read_bytes(dir.file(existing)) == users);
  }
  ScratchDir dir;
  cae::test::write_bytes(dir.file("data_batch_1.bin"), "mine");
  cae::test::write_bytes(dir.file("notes.txt"), "unrelated");
  try {
    cae::write_synthetic_cifar(dir.path(), 20, 10, 1);
    FAIL("no error");
  } catch (const DataError& error) {
    CHECK(std::string(error.what()) ==
          dir.path() +
              " already holds CIFAR-10 files (data_batch_1.bin); a synthetic set would "
              "replace them: choose an empty folder, or pass --force to replace them");
  }
  cae::write_synthetic_cifar(dir.path(), 20, 10, 1, SyntheticOverwrite::kReplace);
  CHECK(cae::load_cifar(dir.path()).train.size() == 20);
  CHECK(cae::test::read_bytes(dir.file("notes.txt")) == "unrelated");
}

TEST_CASE("a folder with a CIFAR-10 file's name is named as a folder, not as missing") {
  for (const char* name :
       {"data_batch_1.bin", "data_batch_2.bin", "test_batch.bin", "batches.meta.txt"}) {
    ScratchDir dir;
    cae::write_synthetic_cifar(dir.path(), 20, 10, 1);
    fs::remove(dir.file(name));
    fs::create_directory(dir.file(name));
    CHECK_THROWS_WITH_AS(cae::load_cifar(dir.path()),
                         (dir.file(name) + " is a folder, not a CIFAR-10 batch file").c_str(),
                         DataError);
  }
}

TEST_CASE("parse_records checks size and every label before appending anything") {
  cae::ImageSet set;
  CHECK(cae::parse_records(cae::test::cifar_records({1, 2}), "a.bin", set) == 2);
  CHECK_THROWS_WITH_AS(cae::parse_records(cae::test::cifar_records({3, 4, 200}), "b.bin", set),
                       "b.bin: record 2 (counting from 0) has label 200, not a class 0..9",
                       DataError);
  CHECK_THROWS_AS(cae::parse_records(cae::test::cifar_records({3}) + "x", "c.bin", set), DataError);
  CHECK(set.size() == 2);
  CHECK(set.pixels.size() == 2 * 3072);
  CHECK(set.labels == std::vector<uint8_t>{1, 2});
}
