#include <doctest/doctest.h>

#include "data/data_source.hpp"
#include "io/scratch_dir.hpp"
#include "official_layouts.hpp"
#include "patterned_images.hpp"

using namespace cae;
using namespace cae::test;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> numbered(const std::string& prefix, int count) {
  std::vector<std::string> names;
  for (int k = 0; k < count; ++k) names.push_back(prefix + std::to_string(k));
  return names;
}

void write_cifar100(const fs::path& dir, const ImageSet& train, const ImageSet& test) {
  std::vector<uint8_t> coarse_train, coarse_test;
  for (uint8_t label : train.labels) coarse_train.push_back(uint8_t(label / 5));
  for (uint8_t label : test.labels) coarse_test.push_back(uint8_t(label / 5));
  write_file(dir / "train.bin", cifar100_records(train, coarse_train));
  write_file(dir / "test.bin", cifar100_records(test, coarse_test));
  write_file(dir / "fine_label_names.txt", lines(numbered("fine", 100)));
  write_file(dir / "coarse_label_names.txt", lines(numbered("coarse", 20)));
}

}  // namespace

TEST_CASE("CIFAR-100: fine labels by default, coarse with coarse_labels, pixels as stored") {
  ScratchDir dir;
  const ImageSet train = patterned_images({99, 0, 57}, 3, 32), test = patterned_images({12}, 3, 32);
  write_cifar100(fs::path(dir.path()) / "cifar-100-binary", train, test);
  CHECK(sniff_data_format(dir.path()) == DataFormat::kCifar100);
  DataOptions options;
  DataSplits data = load_data(dir.path(), options);
  CHECK(data.format == DataFormat::kCifar100);
  CHECK(data.train.labels == std::vector<uint8_t>{99, 0, 57});
  CHECK(data.class_names.size() == 100);
  CHECK(data.class_names[57] == "fine57");
  CHECK(same_images(data.train, train));
  CHECK(same_images(data.test, test));
  options.coarse_labels = true;
  options.memory_cap_bytes = 0;
  data = load_data(dir.path(), options);
  CHECK(data.train.labels == std::vector<uint8_t>{19, 0, 11});
  CHECK(data.class_names.size() == 20);
  CHECK(data.train.on_disk());
  CHECK(same_images(data.train, train));
}

TEST_CASE("CIFAR-100: a label past the classes, a partial record and a short names file are errors") {
  ScratchDir dir;
  const fs::path folder = dir.path();
  const ImageSet images = patterned_images({1, 2}, 3, 32);
  write_cifar100(folder, images, images);
  std::string records = cifar100_records(images, {0, 0});
  records[3074 + 1] = char(100);
  write_file(folder / "train.bin", records);
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); })
            .find("train.bin: record 1 (counting from 0) has label 100, not a class 0..99") != std::string::npos);
  write_file(folder / "train.bin", records.substr(0, 3074 + 10));
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); })
            .find("not a multiple of the 3074-byte record") != std::string::npos);
  write_file(folder / "train.bin", cifar100_records(images, {0, 0}));
  write_file(folder / "fine_label_names.txt", "a\nb\n");
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); })
            .find("fine_label_names.txt names 2 classes, not 100") != std::string::npos);
}

TEST_CASE("class names that report.json, figures or messages could not take are refused, naming the line") {
  ScratchDir dir;
  const fs::path folder = dir.path();
  const ImageSet images = patterned_images({1, 2}, 3, 32);
  write_cifar100(folder, images, images);
  std::string names;
  for (int c = 0; c < 100; ++c) names += "fine" + std::to_string(c) + "\n";
  const auto with_line_3 = [&](const std::string& name) {
    std::string text = names;
    const size_t start = text.find("fine2\n");
    return text.replace(start, 5, name);
  };
  write_file(folder / "fine_label_names.txt", with_line_3("caf\xe9"));  // Latin-1, not UTF-8
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); })
            .find("fine_label_names.txt line 3: the class name is not UTF-8") != std::string::npos);
  write_file(folder / "fine_label_names.txt", with_line_3("red\x1b[31m"));
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); })
            .find("line 3: the class name holds a control character") != std::string::npos);
  write_file(folder / "fine_label_names.txt", with_line_3(std::string(300, 'n')));
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); })
            .find("line 3: the class name is longer than 256 bytes") != std::string::npos);
  write_file(folder / "fine_label_names.txt", with_line_3("K\xc3\xa4tzchen \xe2\x98\x83"));
  CHECK(load_data(dir.path(), DataOptions{}).class_names[2] == "K\xc3\xa4tzchen \xe2\x98\x83");
}
