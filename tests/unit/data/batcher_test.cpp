#include "data/batcher.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

using cae::EpochBatcher;

namespace {

std::vector<std::vector<size_t>> all_batches(EpochBatcher& batcher) {
  std::vector<std::vector<size_t>> batches;
  std::vector<size_t> batch;
  while (batcher.next_batch(batch)) batches.push_back(batch);
  return batches;
}

}  // namespace

TEST_CASE("every image comes exactly once per epoch, including the partial last batch") {
  EpochBatcher batcher(103, 10, 5);
  CHECK(batcher.batches_per_epoch() == 11);
  for (size_t epoch = 0; epoch < 3; ++epoch) {
    batcher.start_epoch(epoch);
    const auto batches = all_batches(batcher);
    REQUIRE(batches.size() == 11);
    CHECK(batches.back().size() == 3);
    std::vector<int> seen(103, 0);
    for (const auto& batch : batches) {
      for (size_t index : batch) ++seen.at(index);
    }
    CHECK(std::count(seen.begin(), seen.end(), 1) == 103);
  }
}

TEST_CASE("the order depends only on seed and epoch, so resuming reproduces it") {
  EpochBatcher straight(50, 8, 11);
  std::vector<std::vector<std::vector<size_t>>> epochs;
  for (size_t epoch = 0; epoch < 4; ++epoch) {
    straight.start_epoch(epoch);
    epochs.push_back(all_batches(straight));
  }
  EpochBatcher resumed(50, 8, 11);
  resumed.start_epoch(2);
  CHECK(all_batches(resumed) == epochs[2]);
  CHECK(epochs[0] != epochs[1]);
  EpochBatcher first(50, 8, 11);  // starts at epoch 0 without being told
  CHECK(all_batches(first) == epochs[0]);
  EpochBatcher other_seed(50, 8, 12);
  CHECK(all_batches(other_seed) != epochs[0]);
}

TEST_CASE("the order is shuffled, and an exhausted epoch stays exhausted") {
  EpochBatcher batcher(1000, 1000, 1);
  std::vector<size_t> batch;
  REQUIRE(batcher.next_batch(batch));
  size_t in_place = 0;
  for (size_t i = 0; i < batch.size(); ++i) in_place += batch[i] == i;
  CHECK(in_place < 20);
  CHECK_FALSE(batcher.next_batch(batch));
  CHECK(batch.empty());
  CHECK_FALSE(batcher.next_batch(batch));
}

TEST_CASE("edge sizes") {
  EpochBatcher empty(0, 4, 1);
  std::vector<size_t> batch;
  CHECK(empty.batches_per_epoch() == 0);
  CHECK_FALSE(empty.next_batch(batch));
  EpochBatcher exact(8, 4, 1);
  CHECK(exact.batches_per_epoch() == 2);
  CHECK(all_batches(exact).back().size() == 4);
  CHECK_THROWS_AS(EpochBatcher(8, 0, 1), std::invalid_argument);
}

TEST_CASE("fill_batch scales to [0, 1] and keeps each image's CHW layout") {
  cae::ImageSet images;
  images.labels = {0, 1, 2};
  images.pixels.resize(3 * 3072);
  for (size_t i = 0; i < images.pixels.size(); ++i)
    images.pixels[i] = static_cast<uint8_t>(i % 256);
  images.pixels[2 * 3072] = 255;
  std::vector<float> out(2 * 3072, -1.0f);
  cae::fill_batch(images, {2, 0}, out.data());
  CHECK(out[0] == 1.0f);
  CHECK(out[1] == doctest::Approx(((2 * 3072 + 1) % 256) / 255.0));
  CHECK(out[3072] == 0.0f);
  CHECK(out[3072 + 1024] == doctest::Approx((1024 % 256) / 255.0));
  CHECK(out[2 * 3072 - 1] == doctest::Approx((3071 % 256) / 255.0));
  CHECK_THROWS_AS(cae::fill_batch(images, {3}, out.data()), std::out_of_range);
}
