#include <doctest/doctest.h>

#include "report/bitmap_text.hpp"

using cae::Rgb;
using cae::RgbImage;

namespace {

// The bounding box of the pixels that are not white.
struct Box {
  int left = 1 << 30, top = 1 << 30, right = -1, bottom = -1;
};

Box ink_box(const RgbImage& image) {
  Box box;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      if (image.at(x, y) == Rgb{255, 255, 255}) continue;
      box.left = std::min(box.left, x);
      box.right = std::max(box.right, x);
      box.top = std::min(box.top, y);
      box.bottom = std::max(box.bottom, y);
    }
  }
  return box;
}

}  // namespace

TEST_CASE("text lands inside the box its measurements promise") {
  RgbImage image(200, 60);
  draw_text(image, 10, 20, "Hey, gpq 0123", Rgb{0, 0, 0}, 2);
  Box box = ink_box(image);
  CHECK(box.left == 10);
  CHECK(box.top >= 20);
  CHECK(box.right == 10 + cae::text_width("Hey, gpq 0123", 2) - 1);
  CHECK(box.bottom <= 20 + cae::text_height(2) - 1);
  CHECK(box.bottom > 20 + 7 * 2 - 1);  // descenders go below the capitals
}

TEST_CASE("vertical text reads bottom to top within its turned box") {
  RgbImage image(60, 200);
  int length = cae::text_width("label", 1);
  draw_text_vertical(image, 5, 30, "label", Rgb{0, 0, 0}, 1);
  Box box = ink_box(image);
  CHECK(box.left >= 5);
  CHECK(box.right <= 5 + cae::text_height(1) - 1);
  CHECK(box.top >= 30);
  CHECK(box.bottom == 30 + length - 1);
}

TEST_CASE("text scales, clips and survives odd characters") {
  CHECK(cae::text_width("abc", 3) == 3 * cae::text_width("abc", 1));
  CHECK(cae::text_width("", 1) == 0);
  RgbImage image(20, 10);
  draw_text(image, -5, -3, "caf\xc3\xa9 \t\x7f", Rgb{0, 0, 0}, 2);  // partly outside
  draw_text(image, 100, 100, "far away", Rgb{0, 0, 0});
  CHECK(cae::text_width("\xc3\xa9", 1) == cae::text_width("??", 1));
}
