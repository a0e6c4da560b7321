#include <doctest/doctest.h>

#include "data/data_source.hpp"
#include "data/image_file.hpp"
#include "io/scratch_dir.hpp"
#include "official_layouts.hpp"
#include "patterned_images.hpp"

using namespace cae;
using namespace cae::test;
namespace fs = std::filesystem;

namespace {

void write_png(const fs::path& path, int width, int height, int channels, const std::vector<uint8_t>& interleaved) {
  fs::create_directories(path.parent_path());
  REQUIRE(stbi_write_png(path.string().c_str(), width, height, channels, interleaved.data(), width * channels));
}

}  // namespace

TEST_CASE("folder: train/ and test/ class subfolders give sorted class names, labels and exact pixels") {
  ScratchDir dir;
  const fs::path root = dir.path();
  const ImageSet train = patterned_images({1, 0, 1}, 3, 16), test = patterned_images({0, 1}, 3, 16);
  write_png_images(train, {"bees", "ants"}, root / "train");  // label 0 = bees on disk
  write_png_images(test, {"bees", "ants"}, root / "test");
  write_file(root / "train" / "ants" / "notes.txt", "not an image");  // ignored
  CHECK(sniff_data_format(dir.path()) == DataFormat::kFolder);
  for (uint64_t cap : {kDefaultMemoryCapBytes, uint64_t(0)}) {
    DataOptions options;
    options.memory_cap_bytes = cap;
    const DataSplits data = load_data(dir.path(), options);
    CHECK(data.class_names == std::vector<std::string>{"ants", "bees"});
    CHECK(data.train.side == 16);
    CHECK(data.train.channels == 3);
    // Sorted paths: ants/image0.png, ants/image2.png, bees/image1.png.
    CHECK(data.train.labels == std::vector<uint8_t>{0, 0, 1});
    ImageSet expected = patterned_images({1, 0, 1}, 3, 16);
    std::vector<uint8_t> first(expected.image(0), expected.image(0) + expected.image_bytes());
    std::vector<uint8_t> read(expected.image_bytes());
    data.train.copy_image(2, read.data());  // bees/image1.png
    CHECK(std::equal(read.begin(), read.end(), expected.image(1)));
    data.train.copy_image(0, read.data());  // ants/image0.png
    CHECK(read == first);
  }
}

TEST_CASE("folder: class folders without train/ and test/ are split per class by the fraction and seed") {
  ScratchDir dir;
  const ImageSet images = patterned_images({0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, 3, 8);
  write_png_images(images, {"a", "b"}, dir.path());
  DataOptions options;
  options.test_fraction = 0.4;
  const DataSplits one = load_data(dir.path(), options), again = load_data(dir.path(), options);
  CHECK(one.train.size() == 6);
  CHECK(one.test.labels == std::vector<uint8_t>{0, 0, 1, 1});
  CHECK(one.test.pixels == again.test.pixels);
  options.split_seed = 2;
  CHECK(load_data(dir.path(), options).test.pixels != one.test.pixels);
}

TEST_CASE("folder: any colour image makes the set RGB, grayscale ones repeated into every channel") {
  ScratchDir dir;
  const fs::path root = dir.path();
  write_png(root / "a.png", 2, 2, 1, {10, 20, 30, 40});
  write_png(root / "b.png", 2, 2, 4, std::vector<uint8_t>(16, 200));
  DataOptions options;
  options.test_fraction = 0.5;
  const DataSplits data = load_data(dir.path(), options);
  CHECK_FALSE(data.labelled);
  REQUIRE(data.train.channels == 3);
  const ImageSet& gray = data.train.pixels[0] == 10 ? data.train : data.test;
  CHECK(gray.pixels == std::vector<uint8_t>{10, 20, 30, 40, 10, 20, 30, 40, 10, 20, 30, 40});
}

TEST_CASE("folder: other sizes are box-filtered or centre-cropped to --image-size") {
  ScratchDir dir;
  const fs::path root = dir.path();
  // 4x4 grayscale: the left two columns 0, the right two 255, the last row 100.
  std::vector<uint8_t> big = {0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 100, 100, 100, 100};
  write_png(root / "train" / "big.png", 4, 4, 1, big);
  write_png(root / "test" / "small.png", 2, 2, 1, {1, 2, 3, 4});
  DataOptions options;
  options.image_size = 2;
  DataSplits data = load_data(dir.path(), options);
  CHECK(data.train.pixels == std::vector<uint8_t>{0, 255, 50, 178});  // means of 2x2 blocks (177.5 rounds up)
  options.resize = ResizeMode::kCrop;
  data = load_data(dir.path(), options);
  CHECK(data.train.pixels == std::vector<uint8_t>{0, 255, 0, 255});
  options.image_size = 3;
  CHECK(data_error_of([&] { load_data(dir.path(), options); })
            .find("small.png is 2x2, smaller than the 3x3 crop") != std::string::npos);
  options.image_size = 0;  // the first image's size: 4
  options.resize = ResizeMode::kBox;
  data = load_data(dir.path(), options);
  CHECK(data.test.side == 4);
  CHECK(data.test.pixels[0] == 1);
  CHECK(data.test.pixels[15] == 4);
}

TEST_CASE("box_resize averages what each output pixel covers and repeats pixels when enlarging") {
  const std::vector<uint8_t> row = {0, 255, 0, 255, 90, 90};  // 6x1
  CHECK(box_resize(row.data(), 6, 1, 1, 1) == std::vector<uint8_t>{115});  // 690 / 6
  const std::vector<uint8_t> one = {7, 9};  // 2x1 -> 4x4: each pixel twice across, rows repeated
  const std::vector<uint8_t> up = box_resize(one.data(), 2, 1, 1, 4);
  CHECK(up == std::vector<uint8_t>{7, 7, 9, 9, 7, 7, 9, 9, 7, 7, 9, 9, 7, 7, 9, 9});
}

TEST_CASE("folder: an empty class folder, an unreadable image and stray images are one-line errors") {
  ScratchDir dir;
  const fs::path root = dir.path();
  const ImageSet images = patterned_images({0, 1, 0, 1, 0, 1, 0, 1, 0, 1}, 3, 4);
  write_png_images(images, {"a", "b"}, root);
  fs::create_directories(root / "c");
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); })
            .find("class folder " + (root / "c").string() + " holds no images") != std::string::npos);
  fs::remove(root / "c");
  write_file(root / "b" / "broken.png", "this is not a PNG");
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); })
            .find("cannot read image " + (root / "b" / "broken.png").string()) != std::string::npos);
  fs::remove(root / "b" / "broken.png");
  write_png(root / "stray.png", 4, 4, 3, std::vector<uint8_t>(48, 1));
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); })
            .find("holds both images (stray.png) and class subfolders") != std::string::npos);
}

TEST_CASE("folder: a class folder name that report.json or a figure could not show is refused at load") {
  ScratchDir dir;
  const fs::path root = dir.path();
  const ImageSet images = patterned_images({0, 1, 0, 1, 0, 1, 0, 1, 0, 1}, 3, 4);
  write_png_images(images, {"caf\xe9", "dog"}, root);  // Latin-1: not UTF-8
  CHECK(data_error_of([&] { load_data(dir.path(), DataOptions{}); })
            .find("class folder " + root.string() + "/caf\\xe9: the name is not UTF-8") !=
        std::string::npos);
  fs::remove_all(root);
  fs::create_directories(root);
  write_png_images(images, {"two\nlines", "dog"}, root);
  const std::string message = data_error_of([&] { load_data(dir.path(), DataOptions{}); });
  CHECK(message.find("two\\x0alines: the name holds a control character") != std::string::npos);
  CHECK(message.find('\n') == std::string::npos);
  fs::remove_all(root);
  fs::create_directories(root);
  write_png_images(images, {"K\xc3\xa4tzchen", "dog"}, root);
  CHECK(load_data(dir.path(), DataOptions{}).class_names ==
        std::vector<std::string>{"K\xc3\xa4tzchen", "dog"});
}
