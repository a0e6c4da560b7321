#include "data/image_subset.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

namespace {

// Five 1x1 RGB images whose bytes name them: image i holds i*10, i*10+1, i*10+2.
cae::ImageSet five_images() {
  cae::ImageSet set;
  set.channels = 3;
  set.side = 1;
  set.class_names = {"a", "b"};
  for (uint8_t i = 0; i < 5; ++i) {
    set.labels.push_back(i % 2);
    for (uint8_t c = 0; c < 3; ++c) set.pixels.push_back(uint8_t(i * 10 + c));
  }
  return set;
}

}  // namespace

TEST_CASE("images_without keeps the other images, their labels and their order") {
  const cae::ImageSet kept = cae::images_without(five_images(), {1, 3});
  REQUIRE(kept.size() == 3);
  CHECK(kept.channels == 3);
  CHECK(kept.side == 1);
  CHECK(kept.class_names == std::vector<std::string>{"a", "b"});
  CHECK(kept.labels == std::vector<uint8_t>{0, 0, 0});
  CHECK(kept.pixels == std::vector<uint8_t>{0, 1, 2, 20, 21, 22, 40, 41, 42});
}

TEST_CASE("images_without with no rows is a copy") {
  const cae::ImageSet set = five_images();
  const cae::ImageSet kept = cae::images_without(set, {});
  CHECK(kept.pixels == set.pixels);
  CHECK(kept.labels == set.labels);
}

TEST_CASE("images_without refuses rows out of order, out of range, or every image") {
  const cae::ImageSet set = five_images();
  CHECK_THROWS_AS(cae::images_without(set, {3, 1}), std::invalid_argument);
  CHECK_THROWS_AS(cae::images_without(set, {2, 2}), std::invalid_argument);
  CHECK_THROWS_AS(cae::images_without(set, {5}), std::invalid_argument);
  CHECK_THROWS_AS(cae::images_without(set, {-1}), std::invalid_argument);
  CHECK_THROWS_AS(cae::images_without(set, {0, 1, 2, 3, 4}), std::invalid_argument);
}
