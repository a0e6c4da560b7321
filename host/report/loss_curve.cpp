#include "report/loss_curve.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "report/axis_ticks.hpp"
#include "report/bitmap_text.hpp"
#include "report/png_file.hpp"
#include "report/shapes.hpp"

namespace cae {
namespace {

constexpr int kPadding = 14;
constexpr int kGap = 8;
constexpr int kTickLength = 5;
constexpr int kTextScale = 2;
constexpr int kMaxEpochsWithMarkers = 60;
constexpr Rgb kInk{40, 40, 40};
constexpr Rgb kAxis{110, 110, 110};
constexpr Rgb kGridLine{230, 230, 230};
constexpr Rgb kLegendFrame{200, 200, 200};

// Matplotlib's first two "tab10" colours: distinct, also for most colour-blind readers.
constexpr Rgb kTrainColor{31, 119, 180};
constexpr Rgb kTestColor{255, 127, 14};

bool plottable(double value, bool log_scale) {
  return std::isfinite(value) && (!log_scale || value > 0.0);
}

struct DataExtent {
  double low = std::numeric_limits<double>::infinity();
  double high = -std::numeric_limits<double>::infinity();
  int epochs = 0;
  bool empty() const { return !(low <= high); }
};

DataExtent data_extent(const std::vector<LossSeries>& series, bool log_scale) {
  DataExtent extent;
  for (const LossSeries& s : series) {
    extent.epochs = std::max(extent.epochs, static_cast<int>(s.values.size()));
    for (double v : s.values) {
      if (!plottable(v, log_scale)) continue;
      extent.low = std::min(extent.low, v);
      extent.high = std::max(extent.high, v);
    }
  }
  return extent;
}

std::string last_value_text(const LossSeries& series, bool log_scale) {
  for (auto it = series.values.rbegin(); it != series.values.rend(); ++it) {
    if (plottable(*it, log_scale)) {
      char text[48];
      std::snprintf(text, sizeof text, "%.4g", *it);
      return text;
    }
  }
  return "n/a";
}

// The plot area in pixels and the value ranges it shows.
class PlotArea {
 public:
  PlotArea(int left, int top, int right, int bottom, const AxisTicks& x, const AxisTicks& y,
           bool log_scale)
      : left_(left), top_(top), right_(right), bottom_(bottom), x_(x), y_(y), log_(log_scale) {}

  double x_pixel(double epoch) const {
    return left_ + (epoch - x_.low) / (x_.high - x_.low) * (right_ - left_);
  }
  double y_pixel(double value) const {
    double fraction =
        log_ ? (std::log10(value) - std::log10(y_.low)) / (std::log10(y_.high) - std::log10(y_.low))
             : (value - y_.low) / (y_.high - y_.low);
    return bottom_ - fraction * (bottom_ - top_);
  }

  int left() const { return left_; }
  int top() const { return top_; }
  int right() const { return right_; }
  int bottom() const { return bottom_; }

 private:
  int left_, top_, right_, bottom_;
  AxisTicks x_, y_;
  bool log_;
};

void draw_axes(RgbImage& image, const PlotArea& plot, const AxisTicks& x_ticks,
               const AxisTicks& y_ticks) {
  int text_h = 7 * kTextScale;  // digits have no descenders
  for (std::size_t i = 0; i < y_ticks.values.size(); ++i) {
    int y = static_cast<int>(std::lround(plot.y_pixel(y_ticks.values[i])));
    image.fill_rect(plot.left(), y, plot.right() - plot.left(), 1, kGridLine);
    image.fill_rect(plot.left() - kTickLength, y, kTickLength, 1, kAxis);
    const std::string& label = y_ticks.labels[i];
    draw_text(image, plot.left() - kTickLength - kGap / 2 - text_width(label, kTextScale),
              y - text_h / 2, label, kInk, kTextScale);
  }
  for (std::size_t i = 0; i < x_ticks.values.size(); ++i) {
    int x = static_cast<int>(std::lround(plot.x_pixel(x_ticks.values[i])));
    image.fill_rect(x, plot.top(), 1, plot.bottom() - plot.top(), kGridLine);
    image.fill_rect(x, plot.bottom(), 1, kTickLength, kAxis);
    const std::string& label = x_ticks.labels[i];
    draw_text(image, x - text_width(label, kTextScale) / 2, plot.bottom() + kTickLength + kGap / 2,
              label, kInk, kTextScale);
  }
  image.stroke_rect(plot.left(), plot.top(), plot.right() - plot.left() + 1,
                    plot.bottom() - plot.top() + 1, kAxis);
}

void draw_series(RgbImage& image, const PlotArea& plot, const LossSeries& series, bool log_scale,
                 bool markers) {
  std::vector<Point> points;
  for (std::size_t i = 0; i < series.values.size(); ++i) {
    double v = series.values[i];
    if (!plottable(v, log_scale)) continue;
    points.push_back(Point{plot.x_pixel(static_cast<double>(i + 1)), plot.y_pixel(v)});
  }
  draw_polyline(image, points, series.color, 2.5);
  if (markers) {
    for (const Point& p : points) fill_circle(image, p.x, p.y, 3.5, series.color);
  }
}

void draw_legend(RgbImage& image, const PlotArea& plot, const std::vector<LossSeries>& series,
                 bool log_scale) {
  constexpr int kSampleLength = 28;
  int line_height = text_height(kTextScale) + 6;
  std::vector<std::string> entries;
  int widest = 0;
  for (const LossSeries& s : series) {
    entries.push_back(s.name + " (last " + last_value_text(s, log_scale) + ")");
    widest = std::max(widest, text_width(entries.back(), kTextScale));
  }
  int box_width = kGap + kSampleLength + kGap + widest + kGap;
  int box_height = kGap + static_cast<int>(series.size()) * line_height;
  int box_x = plot.right() - kGap - box_width;
  int box_y = plot.top() + kGap;
  image.fill_rect(box_x, box_y, box_width, box_height, Rgb{255, 255, 255});
  image.stroke_rect(box_x, box_y, box_width, box_height, kLegendFrame);
  for (std::size_t i = 0; i < series.size(); ++i) {
    int y = box_y + kGap + static_cast<int>(i) * line_height;
    double middle = y + 7 * kTextScale / 2.0;
    double sample_x = box_x + kGap;
    draw_line(image, sample_x, middle, sample_x + kSampleLength, middle, series[i].color, 2.5);
    fill_circle(image, sample_x + kSampleLength / 2.0, middle, 3.5, series[i].color);
    draw_text(image, box_x + 2 * kGap + kSampleLength, y, entries[i], kInk, kTextScale);
  }
}

}  // namespace

RgbImage render_loss_curve(const std::vector<LossSeries>& series, const LossCurveOptions& options) {
  if (options.width < 200 || options.height < 150) {
    throw std::invalid_argument("loss curve: size " + std::to_string(options.width) + "x" +
                                std::to_string(options.height) + " is below 200x150");
  }
  RgbImage image(options.width, options.height);
  const int line_height = text_height(kTextScale);
  int top = kPadding;
  if (!options.title.empty()) {
    draw_text(image, (options.width - text_width(options.title, kTextScale)) / 2, top,
              options.title, kInk, kTextScale);
    top += line_height + kGap;
  }

  DataExtent extent = data_extent(series, options.log_scale);
  if (extent.empty()) {
    const std::string message = "no data";
    image.stroke_rect(kPadding, top, options.width - 2 * kPadding, options.height - top - kPadding,
                      kAxis);
    draw_text(image, (options.width - text_width(message, kTextScale)) / 2,
              (top + options.height - line_height) / 2, message, kInk, kTextScale);
    return image;
  }

  AxisTicks y_ticks = options.log_scale ? log_ticks(extent.low, extent.high)
                                        : linear_ticks(extent.low, extent.high);
  AxisTicks x_ticks = integer_ticks(1, std::max(extent.epochs, 1));

  int widest_y_label = 0;
  for (const std::string& label : y_ticks.labels) {
    widest_y_label = std::max(widest_y_label, text_width(label, kTextScale));
  }
  int left = kPadding + line_height + kGap + widest_y_label + kGap / 2 + kTickLength;
  int bottom =
      options.height - kPadding - line_height - kGap - line_height - kGap / 2 - kTickLength;
  // Half of the last x label may stick out to the right of the plot.
  int right = options.width - kPadding - text_width(x_ticks.labels.back(), kTextScale) / 2;
  top += kGap;
  PlotArea plot(left, top, right, bottom, x_ticks, y_ticks, options.log_scale);

  draw_axes(image, plot, x_ticks, y_ticks);
  draw_text(image, left + (right - left - text_width(options.x_label, kTextScale)) / 2,
            options.height - kPadding - line_height, options.x_label, kInk, kTextScale);
  std::string y_label = options.y_label + (options.log_scale ? " (log scale)" : "");
  draw_text_vertical(image, kPadding, top + (bottom - top - text_width(y_label, kTextScale)) / 2,
                     y_label, kInk, kTextScale);

  bool markers = extent.epochs <= kMaxEpochsWithMarkers;
  for (const LossSeries& s : series) draw_series(image, plot, s, options.log_scale, markers);
  draw_legend(image, plot, series, options.log_scale);
  return image;
}

std::vector<LossSeries> train_and_test_series(const std::vector<double>& train_loss,
                                              const std::vector<double>& test_mse) {
  return {LossSeries{"train loss", train_loss, kTrainColor},
          LossSeries{"test MSE", test_mse, kTestColor}};
}

void write_loss_curve_png(const std::filesystem::path& path, const std::vector<LossSeries>& series,
                          const LossCurveOptions& options) {
  write_png(path, render_loss_curve(series, options));
}

}  // namespace cae
