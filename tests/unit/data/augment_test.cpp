// Training augmentation: flips are mirrors, shifts keep the image's shape and
// move its pixels by at most two, and every draw is a function of (seed,
// epoch, batch number).
#include "data/augment.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "cae/backend.h"

namespace cae {
namespace {

// CIFAR-shaped images; the functions take any shape (a 1x5x5 case below).
constexpr int kChannels = 3;
constexpr int kSide = 32;
constexpr size_t kPixels = size_t(kChannels) * kSide * kSide;

// Distinct values in (0, 1], so a moved pixel can be told from another.
std::vector<float> numbered_images(size_t count) {
  std::vector<float> images(count * kPixels);
  for (size_t i = 0; i < images.size(); ++i) images[i] = float(i + 1) / float(images.size());
  return images;
}

float at(const float* image, int c, int y, int x) { return image[(c * kSide + y) * kSide + x]; }

// `original` mirrored (when asked) then shifted by (dx, dy) with zeros shifted in.
std::vector<float> transformed(const float* original, bool flip, int dx, int dy) {
  std::vector<float> out(kPixels);
  for (int c = 0; c < 3; ++c) {
    for (int y = 0; y < kSide; ++y) {
      for (int x = 0; x < kSide; ++x) {
        const int sy = y + dy, sx = x + dx;
        const bool inside = sy >= 0 && sy < kSide && sx >= 0 && sx < kSide;
        out[size_t((c * kSide + y) * kSide + x)] =
            inside ? at(original, c, sy, flip ? kSide - 1 - sx : sx) : 0.0f;
      }
    }
  }
  return out;
}

// The flip and shift that turn `original` into `image`, if any does.
bool is_flip_and_shift(const float* original, const float* image, int max_shift, bool& flipped) {
  for (bool flip : {false, true}) {
    for (int dy = -max_shift; dy <= max_shift; ++dy) {
      for (int dx = -max_shift; dx <= max_shift; ++dx) {
        if (transformed(original, flip, dx, dy) == std::vector<float>(image, image + kPixels)) {
          flipped = flip;
          return true;
        }
      }
    }
  }
  return false;
}

TEST_CASE("augmentation names parse, and a bad one is refused naming the choices") {
  for (const char* name : {"none", "flip", "flip-crop"}) {
    CHECK(std::string(augmentation_name(parse_augmentation(name))) == name);
  }
  CHECK_THROWS_WITH_AS(parse_augmentation("crop"),
                       "--augment must be none, flip or flip-crop, got 'crop'",
                       std::invalid_argument);
}

TEST_CASE("mirror_images reverses every row of every plane") {
  const std::vector<float> images = numbered_images(2);
  std::vector<float> out(images.size());
  mirror_images(images.data(), out.data(), 2, kChannels, kSide);
  for (size_t i = 0; i < 2; ++i) {
    for (int c = 0; c < 3; ++c) {
      for (int y = 0; y < kSide; y += 7) {
        for (int x = 0; x < kSide; ++x) {
          CHECK(at(out.data() + i * kPixels, c, y, x) ==
                at(images.data() + i * kPixels, c, y, kSide - 1 - x));
        }
      }
    }
  }
  std::vector<float> back(images.size());
  mirror_images(out.data(), back.data(), 2, kChannels, kSide);
  CHECK(back == images);
}

TEST_CASE("mirror_images follows the shape it is given: one 5x5 plane") {
  std::vector<float> image(25);
  for (size_t i = 0; i < image.size(); ++i) image[i] = float(i);
  std::vector<float> out(image.size());
  mirror_images(image.data(), out.data(), 1, 1, 5);
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 5; ++x) CHECK(out[size_t(y * 5 + x)] == image[size_t(y * 5 + 4 - x)]);
  }
}

TEST_CASE("none leaves the batch alone; flip mirrors some images and keeps the rest") {
  const std::vector<float> original = numbered_images(16);
  std::vector<float> batch = original;
  BatchAugmenter(Augmentation::None, 1).apply(batch.data(), 16, kChannels, kSide, 0, 0);
  CHECK(batch == original);
  BatchAugmenter(Augmentation::Flip, 1).apply(batch.data(), 16, kChannels, kSide, 0, 0);
  int flips = 0;
  for (size_t i = 0; i < 16; ++i) {
    bool flipped = false;
    REQUIRE(
        is_flip_and_shift(original.data() + i * kPixels, batch.data() + i * kPixels, 0, flipped));
    flips += flipped ? 1 : 0;
  }
  // 16 fair coins: all heads or all tails has probability 2^-15 (and the seed is fixed).
  CHECK(flips > 0);
  CHECK(flips < 16);
}

TEST_CASE("flip-crop keeps the shape and moves pixels by at most two, zeros shifted in") {
  const std::vector<float> original = numbered_images(8);
  std::vector<float> batch = original;
  batch.push_back(-7.0f);  // a guard past the batch: must stay untouched
  BatchAugmenter(Augmentation::FlipCrop, 5).apply(batch.data(), 8, kChannels, kSide, 2, 3);
  CHECK(batch.back() == -7.0f);
  int moved = 0;
  for (size_t i = 0; i < 8; ++i) {
    bool flipped = false;
    CHECK(is_flip_and_shift(original.data() + i * kPixels, batch.data() + i * kPixels,
                            BatchAugmenter::kMaxShift, flipped));
    moved +=
        std::equal(original.begin() + long(i * kPixels), original.begin() + long((i + 1) * kPixels),
                   batch.begin() + long(i * kPixels))
            ? 0
            : 1;
  }
  CHECK(moved > 0);
}

TEST_CASE("a batch's draws run in its order: each image flipped and shifted as its draws say") {
  // The draws run in the batch's order (so that a caller may move its
  // images on several threads): a 16-image batch is the 64's first 16,
  // moved alike.
  const std::vector<float> original = numbered_images(64);
  std::vector<float> many = original;
  std::vector<float> few(original.begin(), original.begin() + long(16 * kPixels));
  const BatchAugmenter augmenter(Augmentation::FlipCrop, 9);
  augmenter.apply(many.data(), 64, kChannels, kSide, 1, 4);
  augmenter.apply(few.data(), 16, kChannels, kSide, 1, 4);
  CHECK(std::equal(few.begin(), few.end(), many.begin()));
  for (size_t i = 0; i < 64; ++i) {
    bool flipped = false;
    CHECK(is_flip_and_shift(original.data() + i * kPixels, many.data() + i * kPixels,
                            BatchAugmenter::kMaxShift, flipped));
  }
}

TEST_CASE("draws depend on seed, epoch and batch number only") {
  auto augmented = [](uint64_t seed, size_t epoch, size_t batch_number) {
    std::vector<float> batch = numbered_images(8);
    BatchAugmenter(Augmentation::FlipCrop, seed).apply(batch.data(), 8, kChannels, kSide, epoch, batch_number);
    return batch;
  };
  CHECK(augmented(1, 0, 0) == augmented(1, 0, 0));
  CHECK(augmented(1, 0, 0) != augmented(2, 0, 0));
  CHECK(augmented(1, 0, 0) != augmented(1, 1, 0));
  CHECK(augmented(1, 0, 0) != augmented(1, 0, 1));
}

TEST_CASE("input noise has the asked deviation and repeats for a seed") {
  std::vector<float> a(8 * kPixels, 0.5f), b = a;
  add_input_noise(a.data(), a.size(), 0.1f, input_noise_stream(4, 1, 2));
  add_input_noise(b.data(), b.size(), 0.1f, input_noise_stream(4, 1, 2));
  CHECK(a == b);
  double sum = 0, squares = 0;
  for (float v : a) {
    sum += v - 0.5;
    squares += (v - 0.5) * (v - 0.5);
  }
  const double n = double(a.size());
  CHECK(std::fabs(sum / n) < 0.005);
  CHECK(std::sqrt(squares / n) == doctest::Approx(0.1).epsilon(0.03));
  std::vector<float> untouched(16, 0.25f);
  add_input_noise(untouched.data(), untouched.size(), 0.0f, input_noise_stream(4, 1, 2));
  CHECK(untouched == std::vector<float>(16, 0.25f));
}

TEST_CASE("each epoch and batch draws its own noise") {
  CHECK(input_noise_stream(4, 1, 2) == input_noise_stream(4, 1, 2));
  CHECK(input_noise_stream(4, 1, 2) != input_noise_stream(5, 1, 2));
  CHECK(input_noise_stream(4, 1, 2) != input_noise_stream(4, 2, 2));
  CHECK(input_noise_stream(4, 1, 2) != input_noise_stream(4, 1, 3));
}

TEST_CASE("the normal draws are the ABI's definition") {
  // SplitMix64's first output for seed 0, as its authors publish it.
  CHECK(cae_normal_draw_bits(0, 0) == 0xE220A8397B1DCDAFull);
  // Box-Muller of those bits, computed in double by hand (see cae/backend.h).
  CHECK(cae_normal_draw(0, 0) == doctest::Approx(0.37071638725849515).epsilon(1e-6));
  CHECK(cae_normal_draw(0, 1) == doctest::Approx(0.33275449482240155).epsilon(1e-6));
  CHECK(cae_normal_draw(7, 6) == doctest::Approx(0.04681965060529309).epsilon(1e-5));
  CHECK(cae_normal_draw(7, 7) == doctest::Approx(1.0378743359133964).epsilon(1e-6));
  CHECK(cae_normal_draw(123456789, 1000001) == doctest::Approx(0.6824236342061784).epsilon(1e-6));
}

TEST_CASE("a batch's noise added in shards equals the noise added at once") {
  // What several devices do, each with its shard's offset into the batch.
  const uint64_t stream = input_noise_stream(9, 0, 5);
  std::vector<float> whole(3 * kPixels + 7, 0.0f), shards = whole;
  add_input_noise(whole.data(), whole.size(), 0.2f, stream);
  const size_t cut = kPixels + 1;  // an odd offset splits a pair of draws
  add_input_noise(shards.data(), cut, 0.2f, stream, 0);
  add_input_noise(shards.data() + cut, shards.size() - cut, 0.2f, stream, cut);
  CHECK(shards == whole);
  for (size_t i = 0; i < whole.size(); i += 997) {
    CHECK(whole[i] == 0.2f * cae_normal_draw(stream, i));
  }
}

}  // namespace
}  // namespace cae
