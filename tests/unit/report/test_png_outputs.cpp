#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "decode_png.hpp"
#include "report/colormap.hpp"
#include "report/confusion_heatmap.hpp"
#include "report/loss_curve.hpp"
#include "report/png_file.hpp"
#include "report/reconstruction_grid.hpp"
#include "temp_dir.hpp"

using cae::Rgb;
using cae::RgbImage;

namespace {

std::size_t count_pixels(const RgbImage& image, Rgb color) {
  std::size_t count = 0;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) count += image.at(x, y) == color;
  }
  return count;
}

bool same_pixels(const RgbImage& a, const RgbImage& b) {
  if (a.width() != b.width() || a.height() != b.height()) return false;
  for (int y = 0; y < a.height(); ++y) {
    for (int x = 0; x < a.width(); ++x) {
      if (a.at(x, y) != b.at(x, y)) return false;
    }
  }
  return true;
}

// Writes `image`'s PNG under `name` and checks that it decodes to the same pixels.
RgbImage round_trip(const cae::test::TempDir& dir, const std::string& name, const RgbImage& image) {
  cae::write_png(dir / name, image);
  auto decoded = cae::test::decode_png_file(dir / name);
  REQUIRE(decoded.has_value());
  CHECK(same_pixels(*decoded, image));
  return *decoded;
}

}  // namespace

TEST_CASE("a PNG decodes to the pixels that were drawn") {
  cae::test::TempDir dir;
  RgbImage image(7, 5, Rgb{10, 20, 30});
  image.set(0, 0, Rgb{255, 0, 0});
  image.set(6, 4, Rgb{0, 255, 0});
  image.fill_rect(2, 1, 3, 2, Rgb{0, 0, 255});
  RgbImage decoded = round_trip(dir, "tiny.png", image);
  CHECK(decoded.width() == 7);
  CHECK(decoded.height() == 5);
  CHECK(decoded.at(0, 0) == Rgb{255, 0, 0});
  CHECK(decoded.at(6, 4) == Rgb{0, 255, 0});
  CHECK(decoded.at(3, 2) == Rgb{0, 0, 255});
  CHECK(decoded.at(1, 1) == Rgb{10, 20, 30});
}

TEST_CASE("confusion heatmap colours cells by row share") {
  cae::test::TempDir dir;
  // Class 0 always right, class 1 always predicted as 0, class 2 without samples.
  auto matrix = cae::ConfusionMatrix::from_labels({0, 0, 1, 1}, {0, 0, 0, 0}, 3);
  cae::HeatmapOptions options;
  options.cell_px = 40;
  options.show_values = false;
  options.grid_lines = false;
  cae::write_confusion_heatmap_png(dir / "heatmap.png", matrix, {"cat", "dog", "<fox>"}, options);
  auto decoded = cae::test::decode_png_file(dir / "heatmap.png");
  REQUIRE(decoded.has_value());
  CHECK(same_pixels(*decoded,
                    cae::render_confusion_heatmap(matrix, {"cat", "dog", "<fox>"}, options)));
  CHECK(decoded->width() > 3 * 40);
  CHECK(decoded->height() > 3 * 40);

  // Two full cells (0,0) and (1,0) in the darkest colour; the scale bar's top
  // row adds a few pixels of it too.
  Rgb full = cae::map_color(cae::ColorMap::kBlues, 1.0);
  std::size_t full_pixels = count_pixels(*decoded, full);
  CHECK(full_pixels >= 2 * 40 * 40);
  CHECK(full_pixels < 2 * 40 * 40 + 200);
  // Four zero cells in the lightest colour (plus the bottom of the scale bar).
  Rgb empty = cae::map_color(cae::ColorMap::kBlues, 0.0);
  CHECK(count_pixels(*decoded, empty) >= 4 * 40 * 40);
  // The row of the class without samples is grey, not "0 %".
  CHECK(count_pixels(*decoded, Rgb{225, 225, 225}) == 3 * 40 * 40);
}

TEST_CASE("heatmap of a large matrix shrinks its cells and stays readable") {
  std::vector<int> labels;
  for (int i = 0; i < 200; ++i) labels.push_back(i % 100);
  auto matrix = cae::ConfusionMatrix::from_labels(labels, labels, 100);
  RgbImage image = cae::render_confusion_heatmap(matrix, {});
  CHECK(image.width() < 1400);
  CHECK(image.height() < 1400);
}

TEST_CASE("reconstruction grid shows original, reconstruction and amplified difference") {
  cae::test::TempDir dir;
  constexpr int kPlane = 32 * 32;
  std::vector<float> red(3 * kPlane, 0.0f);
  std::vector<float> dark_red(3 * kPlane, 0.0f);
  for (int i = 0; i < kPlane; ++i) {
    red[i] = 1.0f;
    dark_red[i] = 0.5f;  // |1 - 0.5| * 3 = 1.5: clamped to full red
  }
  std::vector<float> broken = dark_red;
  broken[0] = std::nanf("");

  std::vector<cae::ReconstructionSample> samples = {{"", red.data(), dark_red.data()},
                                                    {"", red.data(), broken.data()}};
  cae::write_reconstruction_grid_png(dir / "grid.png", samples);
  auto decoded = cae::test::decode_png_file(dir / "grid.png");
  REQUIRE(decoded.has_value());
  CHECK(same_pixels(*decoded, cae::render_reconstruction_grid(samples)));

  const std::size_t tile = 96 * 96;  // 32 px at scale 3
  CHECK(decoded->width() >= 3 * 96 + 2 * 4);
  CHECK(decoded->height() >= 2 * 96 + 4);
  CHECK(count_pixels(*decoded, Rgb{255, 0, 0}) == 2 * 2 * tile - 9);  // originals + differences
  CHECK(count_pixels(*decoded, Rgb{128, 0, 0}) == 2 * tile - 9);      // reconstructions
  // The NaN pixel (3x3 after scaling) is flagged in the reconstruction and
  // the difference.
  CHECK(count_pixels(*decoded, Rgb{255, 0, 255}) == 2 * 9);
}

TEST_CASE("reconstruction grid rejects unusable input") {
  std::vector<float> image(3 * 32 * 32, 0.5f);
  CHECK_THROWS_AS(cae::render_reconstruction_grid({}), std::invalid_argument);
  CHECK_THROWS_AS(cae::render_reconstruction_grid({{"x", image.data(), nullptr}}),
                  std::invalid_argument);
  cae::ReconstructionGridOptions options;
  options.channels = 2;
  CHECK_THROWS_AS(cae::render_reconstruction_grid({{"x", image.data(), image.data()}}, options),
                  std::invalid_argument);
}

TEST_CASE("loss curve draws both series in their colours") {
  cae::test::TempDir dir;
  std::vector<double> train = {0.08, 0.05, 0.04, 0.035, 0.03};
  std::vector<double> test = {0.09, std::nan(""), 0.045, std::nan(""), 0.033};
  auto series = cae::train_and_test_series(train, test);
  cae::LossCurveOptions options;
  options.width = 640;
  options.height = 360;
  for (bool log_scale : {false, true}) {
    options.log_scale = log_scale;
    cae::write_loss_curve_png(dir / "loss.png", series, options);
    auto decoded = cae::test::decode_png_file(dir / "loss.png");
    REQUIRE(decoded.has_value());
    CHECK(decoded->width() == 640);
    CHECK(decoded->height() == 360);
    CHECK(decoded->at(0, 0) == Rgb{255, 255, 255});
    // Solid runs of each colour: lines, markers and the legend's samples.
    CHECK(count_pixels(*decoded, series[0].color) > 200);
    CHECK(count_pixels(*decoded, series[1].color) > 100);
  }
}

TEST_CASE("loss curve without data still renders") {
  cae::LossCurveOptions options;
  options.log_scale = true;
  RgbImage image = cae::render_loss_curve(cae::train_and_test_series({0.0, -1.0}, {}), options);
  CHECK(image.width() == options.width);
  CHECK(count_pixels(image, Rgb{31, 119, 180}) == 0);
  RgbImage single = cae::render_loss_curve(cae::train_and_test_series({0.5}, {0.5}));
  CHECK(count_pixels(single, Rgb{255, 127, 14}) > 0);
  options.width = 10;
  CHECK_THROWS_AS(cae::render_loss_curve({}, options), std::invalid_argument);
}

TEST_CASE("a PNG writer that cannot write names the path and leaves nothing behind") {
  cae::test::TempDir dir;
  RgbImage image(4, 4);
  auto missing = dir / "no-such-dir" / "picture.png";
  CHECK_THROWS_WITH_AS(cae::write_png(missing, image), doctest::Contains(missing.c_str()),
                       std::runtime_error);
  CHECK_FALSE(std::filesystem::exists(missing));
  CHECK(cae::test::entries_in(dir.path()) == 0);
}
