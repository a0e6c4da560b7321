#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "picture.hpp"
#include "report/bar_chart.hpp"
#include "report/colormap.hpp"
#include "report/confusion_heatmap.hpp"
#include "report/figure.hpp"
#include "report/loss_curve.hpp"
#include "report/reconstruction_grid.hpp"
#include "temp_dir.hpp"

using cae::Rgb;
using cae::test::contains;
using cae::test::decode_png_file;

namespace {

// A figure of two solid rectangles on white.
cae::Figure two_boxes() {
  return cae::Figure{7, 5, [](cairo_t* cr) {
                       cairo_set_source_rgb(cr, 1, 1, 1);
                       cairo_paint(cr);
                       cairo_set_source_rgb(cr, 1, 0, 0);
                       cairo_rectangle(cr, 0, 0, 1, 1);
                       cairo_fill(cr);
                       cairo_set_source_rgb(cr, 0, 0, 1);
                       cairo_rectangle(cr, 2, 1, 3, 2);
                       cairo_fill(cr);
                     }};
}

}  // namespace

TEST_CASE("one drawing function makes both the PNG and the SVG") {
  cae::test::TempDir dir;
  cae::write_figure(dir / "boxes.png", two_boxes());
  auto picture = decode_png_file(dir / "boxes.png");
  REQUIRE(picture.has_value());
  CHECK(picture->width == 7);
  CHECK(picture->height == 5);
  CHECK(picture->at(0, 0) == Rgb{255, 0, 0});
  CHECK(picture->at(3, 2) == Rgb{0, 0, 255});
  CHECK(picture->at(6, 4) == Rgb{255, 255, 255});
  CHECK(picture->count(Rgb{0, 0, 255}) == 6);

  std::string svg = cae::test::read_file(dir / "boxes.svg");
  CHECK(svg.size() == cae::figure_svg(two_boxes()).size());
  CHECK(contains(svg, "<svg"));
  CHECK(contains(svg, "width=\"7px\""));  // pixels, not points
  CHECK(contains(svg, "viewBox=\"0 0 7 5\""));
  CHECK(contains(svg, "rgb(0%,0%,100%)"));  // the blue box as a vector shape
}

TEST_CASE("a figure that cannot be written names the path and leaves nothing behind") {
  cae::test::TempDir dir;
  auto missing = dir / "no-such-dir" / "picture.png";
  CHECK_THROWS_WITH_AS(cae::write_figure(missing, two_boxes()),
                       doctest::Contains(missing.parent_path().c_str()), std::runtime_error);
  CHECK(cae::test::entries_in(dir.path()) == 0);
  CHECK_THROWS_AS(cae::figure_png(cae::Figure{0, 10, [](cairo_t*) {}}), std::invalid_argument);
  CHECK_THROWS_AS(cae::figure_png(cae::Figure{10, 10, nullptr}), std::invalid_argument);
}

TEST_CASE("a drawing error surfaces as an exception naming cairo's reason") {
  cae::Figure broken{10, 10, [](cairo_t* cr) { cairo_restore(cr); }};  // restore without save
  CHECK_THROWS_WITH_AS(cae::figure_png(broken), doctest::Contains("restore"), std::runtime_error);
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
  auto picture = decode_png_file(dir / "heatmap.png");
  REQUIRE(picture.has_value());
  CHECK(picture->width > 3 * 40);
  CHECK(picture->height > 3 * 40);
  // Two full cells (0,0) and (1,0) in the darkest colour.
  std::size_t full = picture->count(cae::map_color(cae::ColorMap::kBlues, 1.0));
  CHECK(full >= 2 * 40 * 40);
  CHECK(full < 2 * 40 * 40 + 400);  // plus a little of the scale bar's top
  CHECK(picture->count(cae::map_color(cae::ColorMap::kBlues, 0.0)) >= 4 * 40 * 40);
  // The row of the class without samples is grey, not "0 %".
  // (Anti-aliased text edges add a few pixels of that grey.)
  CHECK(picture->count(Rgb{225, 225, 225}) >= 3 * 40 * 40);
  CHECK(picture->count(Rgb{225, 225, 225}) < 3 * 40 * 40 + 100);
  // Class names are real text: glyph outlines in the SVG, escaped nowhere needed.
  std::string svg = cae::test::read_file(dir / "heatmap.svg");
  CHECK(contains(svg, "glyph"));
}

TEST_CASE("heatmap of a large matrix shrinks its cells and stays readable") {
  std::vector<int> labels;
  for (int i = 0; i < 200; ++i) labels.push_back(i % 100);
  auto matrix = cae::ConfusionMatrix::from_labels(labels, labels, 100);
  cae::Figure figure = cae::confusion_heatmap_figure(matrix, {});
  CHECK(figure.width < 1400);
  CHECK(figure.height < 1400);
  CHECK(figure_png(figure).size() > 1000);
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
  auto picture = decode_png_file(dir / "grid.png");
  REQUIRE(picture.has_value());
  const std::size_t tile = 96 * 96;  // 32 px at scale 3
  CHECK(picture->width >= 3 * 96 + 2 * 4);
  CHECK(picture->height >= 2 * 96 + 4);
  CHECK(picture->count(Rgb{255, 0, 0}) == 2 * 2 * tile - 9);  // originals + differences
  CHECK(picture->count(Rgb{128, 0, 0}) == 2 * tile - 9);      // reconstructions
  // The NaN pixel (3x3 after scaling) is flagged in the reconstruction and the difference.
  CHECK(picture->count(Rgb{255, 0, 255}) == 2 * 9);
  // The SVG carries the tiles as embedded images next to the vector titles.
  std::string svg = cae::test::read_file(dir / "grid.svg");
  CHECK(contains(svg, "data:image/png;base64"));
}

TEST_CASE("reconstruction grid rejects unusable input") {
  std::vector<float> image(3 * 32 * 32, 0.5f);
  CHECK_THROWS_AS(cae::reconstruction_grid_figure({}), std::invalid_argument);
  CHECK_THROWS_AS(cae::reconstruction_grid_figure({{"x", image.data(), nullptr}}),
                  std::invalid_argument);
  cae::ReconstructionGridOptions options;
  options.channels = 2;
  CHECK_THROWS_AS(cae::reconstruction_grid_figure({{"x", image.data(), image.data()}}, options),
                  std::invalid_argument);
}

TEST_CASE("loss curve draws both series in their colours, and writes its numbers") {
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
    auto picture = decode_png_file(dir / "loss.png");
    REQUIRE(picture.has_value());
    CHECK(picture->width == 640);
    CHECK(picture->height == 360);
    CHECK(picture->at(0, 0) == Rgb{255, 255, 255});
    // Solid runs of each colour: lines, markers and the legend's samples.
    CHECK(picture->count(series[0].color) > 200);
    CHECK(picture->count(series[1].color) > 100);
  }
  CHECK(
      cae::test::read_file(dir / "loss.csv").rfind("epoch,train loss,test MSE\n1,0.08,0.09\n", 0) ==
      0);
  CHECK(std::filesystem::exists(dir / "loss.svg"));
}

TEST_CASE("loss curve without data still renders") {
  cae::test::TempDir dir;
  cae::LossCurveOptions options;
  options.log_scale = true;
  auto nothing = cae::loss_curve_figure(cae::train_and_test_series({0.0, -1.0}, {}), options);
  cae::write_figure(dir / "nothing.png", nothing);
  auto picture = decode_png_file(dir / "nothing.png");
  REQUIRE(picture.has_value());
  CHECK(picture->width == options.width);
  CHECK(picture->count(cae::series_color(0)) == 0);
  cae::write_figure(dir / "single.png",
                    cae::loss_curve_figure(cae::train_and_test_series({0.5}, {0.5})));
  CHECK(decode_png_file(dir / "single.png")->count(cae::series_color(1)) > 0);
  options.width = 10;
  CHECK_THROWS_AS(cae::loss_curve_figure({}, options), std::invalid_argument);
}

TEST_CASE("log scale is preferred when the loss falls by more than 10x") {
  CHECK(cae::prefers_log_scale(cae::train_and_test_series({1.0, 0.05}, {})));
  CHECK_FALSE(cae::prefers_log_scale(cae::train_and_test_series({1.0, 0.5}, {0.2})));
  CHECK_FALSE(cae::prefers_log_scale({}));
}

TEST_CASE("bar chart draws one bar per series and category") {
  cae::test::TempDir dir;
  std::vector<std::string> ops = {"conv2d_forward encoder.conv1", "relu_backward", "adam"};
  std::vector<cae::BarSeries> series = {{"cpu", {120.0, 3.0, 1.0}, cae::series_color(0)},
                                        {"v3", {0.5, std::nan(""), 0.01}, cae::series_color(1)}};
  for (bool log_scale : {false, true}) {
    cae::BarChartOptions options;
    options.log_scale = log_scale;
    options.y_label = "ms";
    cae::write_figure(dir / "bars.png", cae::bar_chart_figure(ops, series, options));
    auto picture = decode_png_file(dir / "bars.png");
    REQUIRE(picture.has_value());
    CHECK(picture->width == options.width);
    // The tallest bar alone is over a hundred pixels of solid colour.
    CHECK(picture->count(series[0].color) > 1000);
    CHECK(picture->count(series[1].color) > 50);  // legend swatch at least
  }
  CHECK_THROWS_AS(cae::bar_chart_figure({}, series), std::invalid_argument);
  CHECK_THROWS_AS(cae::bar_chart_figure({"one"}, series), std::invalid_argument);
}
