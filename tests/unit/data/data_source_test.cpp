#include "data/data_source.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <thread>
#include <vector>

#include "data/batcher.hpp"
#include "data/cifar_writer.hpp"
#include "data/data_check.hpp"
#include "data/synthetic_dataset.hpp"
#include "data/test_split.hpp"
#include "patterned_images.hpp"

using namespace cae;
using namespace cae::test;
namespace fs = std::filesystem;

TEST_CASE("data formats and resize modes parse by name; anything else names the accepted ones") {
  for (const char* name : {"auto", "cifar10", "cifar100", "stl10", "folder", "npy", "synthetic"}) {
    CHECK(std::string(data_format_name(parse_data_format(name))) == name);
  }
  CHECK_THROWS_WITH_AS(parse_data_format("mnist"),
                       doctest::Contains("must be auto, cifar10, cifar100, stl10, folder, npy or synthetic"),
                       std::invalid_argument);
  CHECK(parse_resize_mode("crop") == ResizeMode::kCrop);
  CHECK_THROWS_AS(parse_resize_mode("nearest"), std::invalid_argument);
}

TEST_CASE("sniffing: CIFAR-10 by its test batch; a folder of nothing known is an error naming it") {
  ScratchDir dir;
  write_bytes(dir.file("test_batch.bin"), cifar_records({1}));
  CHECK(sniff_data_format(dir.path()) == DataFormat::kCifar10);
  ScratchDir empty;
  write_bytes(empty.file("readme.txt"), "hello");
  CHECK(data_error_of([&] { sniff_data_format(empty.path()); })
            .find(empty.path() + " is not a data set cae recognises") != std::string::npos);
  CHECK(data_error_of([&] { sniff_data_format(empty.file("absent")); }).find("does not exist") != std::string::npos);
}

TEST_CASE("a CIFAR-10 set over the memory cap stays on disk and gives the same batches") {
  ScratchDir dir;
  write_bytes(dir.file("data_batch_1.bin"), cifar_records({0, 1, 2}));
  write_bytes(dir.file("data_batch_2.bin"), cifar_records({3, 4}));
  write_bytes(dir.file("test_batch.bin"), cifar_records({5}));
  write_class_names(dir.file("batches.meta.txt"));
  DataOptions options;
  const DataSplits memory = load_data(dir.path(), options);
  options.memory_cap_bytes = 3072 * 4;  // the 5 training images do not fit, the test image does
  const DataSplits disk = load_data(dir.path(), options);
  CHECK_FALSE(memory.train.on_disk());
  CHECK(disk.train.on_disk());
  CHECK_FALSE(disk.test.on_disk());
  CHECK(disk.train.labels == memory.train.labels);
  const std::vector<size_t> indices = {4, 0, 3};
  std::vector<float> a(3 * 3072), b(3 * 3072);
  fill_batch(memory.train, indices, a.data());
  fill_batch(disk.train, indices, b.data());
  CHECK(a == b);
  // A batch filled in parts, side by side on threads (the trainer's host
  // batches), from memory and from disk: the whole batch's values.
  for (const ImageSet* set : {&memory.train, &disk.train}) {
    std::vector<float> parts(3 * 3072, -1.0f);
    std::thread first([&] { fill_batch(*set, indices.data(), 1, parts.data()); });
    std::thread rest([&] { fill_batch(*set, indices.data() + 1, 2, parts.data() + 3072); });
    first.join();
    rest.join();
    CHECK(parts == a);
  }
  options.max_train = 4;
  CHECK(load_data(dir.path(), options).train.size() == 4);
}

TEST_CASE("split_by_fraction: per class, deterministic, both splits non-empty") {
  const std::vector<uint8_t> labels = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
  const SplitIndices split = split_by_fraction(labels, 0.2, 7, "x");
  CHECK(split.test.size() == 3);  // 2 of class 0, 1 of class 1
  size_t class_one = 0;
  for (size_t i : split.test) class_one += labels[i];
  CHECK(class_one == 1);
  CHECK(split_by_fraction(labels, 0.2, 7, "x").test == split.test);
  CHECK(split.train.size() + split.test.size() == labels.size());
  CHECK(data_error_of([&] { split_by_fraction({0, 1}, 0.2, 1, "d"); }).find("both need at least one") != std::string::npos);
}

TEST_CASE("the synthetic format made in memory equals the set `cae data synth` writes") {
  ScratchDir dir;
  write_synthetic_cifar(dir.path(), 30, 20, 1);
  DataOptions options;
  options.max_train = 30;
  options.max_test = 20;
  const DataSplits written = load_data(dir.path(), options);
  options.format = DataFormat::kSynthetic;
  const DataSplits made = load_data("", options);
  // 3,000 generated, the first 30 kept: each image depends only on its index.
  CHECK(made.train.labels.size() == 30);
  CHECK(made.class_names == written.class_names);
  ImageSet direct = synthetic_image_set(30, 1, false);
  CHECK(direct.pixels == written.train.pixels);
  CHECK(direct.labels == written.train.labels);
}

TEST_CASE("check_data counts per class without holding the images") {
  ScratchDir dir;
  write_bytes(dir.file("data_batch_1.bin"), cifar_records({0, 1, 1}));
  write_bytes(dir.file("test_batch.bin"), cifar_records({9}));
  write_class_names(dir.file("batches.meta.txt"));
  const DataSummary summary = check_data(dir.path(), DataOptions{});
  REQUIRE(summary.splits.size() == 2);
  CHECK(summary.splits[0].per_class[1] == 2);
  CHECK(summary.splits[1].per_class[9] == 1);
  const std::string text = describe(summary);
  CHECK(text.find("cifar10 data in " + dir.path() + ": 32x32 images, 3 channels, 10 classes") != std::string::npos);
  CHECK(text.find("train: 3 images") != std::string::npos);
}
