// cae-write-test-data: small data sets in every layout cae reads, made from
// the synthetic 10-class images, for the CLI tests (no network needed).
//   folder DIR TRAIN TEST        DIR/train/<class>/*.png, DIR/test/<class>/*.png
//   npy DIR N                    DIR/images.npy (uint8), labels.npy, classes.txt
//   npy-float FILE N             FILE: N float32 images in [0, 1], unlabelled
//   cifar100 DIR TRAIN TEST      DIR/cifar-100-binary/ (fine label = synthetic class,
//                                coarse = class / 2, names fine-<k> / coarse-<k>)
//   stl10 DIR TRAIN TEST UNLAB   DIR/stl10_binary/, 96x96 (each 32x32 pixel as 3x3)
#include <cstdlib>
#include <iostream>
#include <string>

#include "data/synthetic_dataset.hpp"
#include "official_layouts.hpp"

namespace fs = std::filesystem;
using namespace cae;
using namespace cae::test;

namespace {

ImageSet synthetic(const std::string& count, bool test) {
  return synthetic_image_set(std::stoul(count), 1, test);
}

ImageSet enlarged(const ImageSet& small, int factor) {
  ImageSet big;
  big.labels = small.labels;
  big.channels = small.channels;
  big.side = small.side * factor;
  big.pixels.resize(big.size() * big.image_bytes());
  const size_t s = size_t(small.side), b = size_t(big.side);
  for (size_t i = 0; i < big.size(); ++i) {
    for (size_t c = 0; c < size_t(big.channels); ++c) {
      for (size_t y = 0; y < b; ++y) {
        for (size_t x = 0; x < b; ++x) {
          big.pixels[i * big.image_bytes() + (c * b + y) * b + x] =
              small.image(i)[(c * s + y / size_t(factor)) * s + x / size_t(factor)];
        }
      }
    }
  }
  return big;
}

std::vector<std::string> numbered(const std::string& prefix, int count) {
  std::vector<std::string> names;
  for (int k = 0; k < count; ++k) names.push_back(prefix + std::to_string(k));
  return names;
}

void write_cifar100(const fs::path& dir, const ImageSet& train, const ImageSet& test) {
  const fs::path folder = dir / "cifar-100-binary";
  for (auto [name, images] : {std::pair<const char*, const ImageSet*>{"train.bin", &train}, {"test.bin", &test}}) {
    std::vector<uint8_t> coarse;
    for (uint8_t label : images->labels) coarse.push_back(uint8_t(label / 2));
    write_file(folder / name, cifar100_records(*images, coarse));
  }
  write_file(folder / "fine_label_names.txt", lines(numbered("fine-", 100)));
  write_file(folder / "coarse_label_names.txt", lines(numbered("coarse-", 20)));
}

void write_stl10(const fs::path& dir, const ImageSet& train, const ImageSet& test, const ImageSet& unlabelled) {
  const fs::path folder = dir / "stl10_binary";
  write_file(folder / "train_X.bin", stl10_images(train));
  write_file(folder / "train_y.bin", stl10_labels(train.labels));
  write_file(folder / "test_X.bin", stl10_images(test));
  write_file(folder / "test_y.bin", stl10_labels(test.labels));
  write_file(folder / "unlabeled_X.bin", stl10_images(unlabelled));
  write_file(folder / "class_names.txt",
             lines({"airplane", "bird", "car", "cat", "deer", "dog", "horse", "monkey", "ship", "truck"}));
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    const std::string mode = args.empty() ? "" : args[0];
    if (mode == "folder" && args.size() == 4) {
      const ImageSet train = synthetic(args[2], false), test = synthetic(args[3], true);
      write_png_images(train, train.class_names, fs::path(args[1]) / "train");
      write_png_images(test, test.class_names, fs::path(args[1]) / "test");
    } else if (mode == "npy" && args.size() == 3) {
      const ImageSet images = synthetic(args[2], false);
      write_file(fs::path(args[1]) / "images.npy", npy_images(images, false));
      write_file(fs::path(args[1]) / "labels.npy", npy_labels(images.labels));
      write_file(fs::path(args[1]) / "classes.txt", lines(images.class_names));
    } else if (mode == "npy-float" && args.size() == 3) {
      write_file(args[1], npy_images(synthetic(args[2], false), true));
    } else if (mode == "cifar100" && args.size() == 4) {
      write_cifar100(args[1], synthetic(args[2], false), synthetic(args[3], true));
    } else if (mode == "stl10" && args.size() == 5) {
      write_stl10(args[1], enlarged(synthetic(args[2], false), 3), enlarged(synthetic(args[3], true), 3),
                  enlarged(synthetic_image_set(std::stoul(args[4]), 2, false), 3));
    } else {
      std::cerr << "usage: cae-write-test-data folder|npy|npy-float|cifar100|stl10 ... (see the source)\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "cae-write-test-data: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
