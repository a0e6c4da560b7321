#include "report/confusion_heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "report/class_names.hpp"
#include "report/plot_frame.hpp"

namespace cae {
namespace {

constexpr int kMaxGridPx = 960;
constexpr int kMinCellPx = 8;
constexpr double kHeatmapPadding = 16.0;
constexpr double kScaleBarWidth = 16.0;
constexpr Rgb kGridLine{205, 208, 214};
constexpr Rgb kNoData{225, 225, 225};

int cell_size(const HeatmapOptions& options, int num_classes) {
  int fitting = kMaxGridPx / num_classes;
  return std::max(kMinCellPx, std::min(options.cell_px, fitting));
}

std::string percent_label(double fraction, std::int64_t count) {
  if (count == 0) return "0";
  long rounded = std::lround(fraction * 100.0);
  // A handful of samples in a big class would round to a misleading "0".
  return rounded == 0 ? "<1" : std::to_string(rounded);
}

// Where everything goes; computed first so the figure can be sized exactly.
struct Layout {
  int cell = 0;
  TextStyle names;  // class names, scaled down with the cells
  TextStyle values;
  bool show_values = false;
  // Short names (such as class numbers) fit above their column; longer ones
  // are turned upright.
  bool upright_column_names = false;
  double grid_x = 0.0;
  double grid_y = 0.0;
  double grid_size = 0.0;
  double scale_bar_x = 0.0;
  int width = 0;
  int height = 0;
};

// The largest text size (13 px down to 7 px) at which "100" fits a cell.
double value_text_size(int cell) {
  for (double size = 13.0; size >= 7.0; size -= 1.0) {
    if (text_width("100", TextStyle{size}) <= cell - 6) return size;
  }
  return 0.0;
}

Layout plan_layout(const std::vector<std::string>& names, const HeatmapOptions& options) {
  Layout layout;
  int n = static_cast<int>(names.size());
  layout.cell = cell_size(options, n);
  layout.grid_size = n * layout.cell;
  layout.names = TextStyle{std::clamp(layout.cell * 0.4, 8.0, 13.0)};
  double value_size = value_text_size(layout.cell);
  layout.show_values = options.show_values && value_size > 0.0;
  layout.values = TextStyle{value_size};

  double longest_name = 0.0;
  for (const std::string& name : names) {
    longest_name = std::max(longest_name, text_width(name, layout.names));
  }
  double name_height = text_height(layout.names);
  double axis_title_height = text_height(kLabelText);
  layout.upright_column_names = longest_name > layout.cell - 4;
  double column_names_height = layout.upright_column_names ? longest_name : name_height;

  layout.grid_x = std::ceil(kHeatmapPadding + axis_title_height + kChartGap + longest_name + kChartGap);
  double top = kHeatmapPadding;
  if (!options.title.empty()) top += text_height(kTitleText) + kChartGap;
  top += axis_title_height + kChartGap;  // "predicted class"
  layout.grid_y = std::ceil(top + column_names_height + kChartGap);

  layout.scale_bar_x = layout.grid_x + layout.grid_size + 3 * kChartGap;
  double scale_labels_width = text_width("100", kTickText);
  double width = layout.scale_bar_x + kScaleBarWidth + kChartGap + scale_labels_width + kChartGap +
                 text_height(kTickText) + kHeatmapPadding;
  // A long title may need more room than the matrix.
  if (!options.title.empty()) {
    width = std::max(width, 2 * kHeatmapPadding + text_width(options.title, kTitleText));
  }
  layout.width = static_cast<int>(std::ceil(width));
  layout.height = static_cast<int>(std::ceil(layout.grid_y + layout.grid_size + kHeatmapPadding));
  return layout;
}

void draw_axis_labels(cairo_t* cr, const Layout& layout, const std::vector<std::string>& names,
                      const HeatmapOptions& options) {
  double y = kHeatmapPadding;
  if (!options.title.empty()) {
    draw_text(cr, layout.width / 2.0, y, options.title, kTitleText, Align::kCenter);
    y += text_height(kTitleText) + kChartGap;
  }
  double grid_middle_x = layout.grid_x + layout.grid_size / 2;
  draw_text(cr, grid_middle_x, y, "predicted class", kLabelText, Align::kCenter);
  draw_text(cr, kHeatmapPadding, layout.grid_y + layout.grid_size / 2, "true class", kLabelText,
            Align::kCenter, Align::kStart, 90.0);

  for (int i = 0; i < static_cast<int>(names.size()); ++i) {
    double middle = (i + 0.5) * layout.cell;
    // Row names right-aligned against the grid.
    draw_text(cr, layout.grid_x - kChartGap, layout.grid_y + middle, names[i], layout.names, Align::kEnd,
              Align::kCenter);
    if (layout.upright_column_names) {  // ending just above the grid
      draw_text(cr, layout.grid_x + middle, layout.grid_y - kChartGap, names[i], layout.names,
                Align::kStart, Align::kCenter, 90.0);
    } else {
      draw_text(cr, layout.grid_x + middle, layout.grid_y - kChartGap, names[i], layout.names,
                Align::kCenter, Align::kEnd);
    }
  }
}

void draw_cells(cairo_t* cr, const Layout& layout, const ConfusionMatrix& matrix,
                const HeatmapOptions& options) {
  int n = matrix.num_classes();
  for (int t = 0; t < n; ++t) {
    for (int p = 0; p < n; ++p) {
      double fraction = matrix.row_fraction(t, p);
      bool has_data = std::isfinite(fraction);
      Rgb fill = has_data ? map_color(options.color_map, fraction) : kNoData;
      double x = layout.grid_x + p * layout.cell;
      double y = layout.grid_y + t * layout.cell;
      set_color(cr, fill);
      cairo_rectangle(cr, x, y, layout.cell, layout.cell);
      cairo_fill(cr);
      if (!layout.show_values || !has_data) continue;
      TextStyle style = layout.values;
      style.color = readable_text_color(fill);
      // Empty cells keep their "0" faint so the eye goes to what is there.
      if (matrix.count(t, p) == 0) style.color = mix(fill, style.color, 0.3);
      draw_text(cr, x + layout.cell / 2.0, y + layout.cell / 2.0,
                percent_label(fraction, matrix.count(t, p)), style, Align::kCenter, Align::kCenter);
    }
  }
  cairo_set_line_width(cr, 1.0);
  if (options.grid_lines) {
    set_color(cr, kGridLine);
    for (int i = 1; i < n; ++i) {
      double offset = i * layout.cell + 0.5;
      cairo_move_to(cr, layout.grid_x + offset, layout.grid_y);
      cairo_line_to(cr, layout.grid_x + offset, layout.grid_y + layout.grid_size);
      cairo_move_to(cr, layout.grid_x, layout.grid_y + offset);
      cairo_line_to(cr, layout.grid_x + layout.grid_size, layout.grid_y + offset);
    }
    cairo_stroke(cr);
  }
  draw_frame(cr, PlotBox{layout.grid_x - 1, layout.grid_y - 1, layout.grid_x + layout.grid_size,
                         layout.grid_y + layout.grid_size});
}

// A vertical colour ramp from 100 % (top) to 0 % (bottom) with labelled ticks and a caption.
void draw_scale_bar(cairo_t* cr, const Layout& layout, const HeatmapOptions& options) {
  double top = layout.grid_y;
  double height = layout.grid_size;
  cairo_pattern_t* ramp = cairo_pattern_create_linear(0.0, top + height, 0.0, top);
  constexpr int kStops = 16;
  for (int i = 0; i <= kStops; ++i) {
    Rgb c = map_color(options.color_map, static_cast<double>(i) / kStops);
    cairo_pattern_add_color_stop_rgb(ramp, static_cast<double>(i) / kStops, c.r / 255.0,
                                     c.g / 255.0, c.b / 255.0);
  }
  cairo_rectangle(cr, layout.scale_bar_x, top, kScaleBarWidth, height);
  cairo_set_source(cr, ramp);
  cairo_fill(cr);
  cairo_pattern_destroy(ramp);
  PlotBox bar{layout.scale_bar_x - 1, top - 1, layout.scale_bar_x + kScaleBarWidth, top + height};
  draw_frame(cr, bar);
  double labels_x = layout.scale_bar_x + kScaleBarWidth + kChartGap;
  set_color(cr, kAxisColor);
  for (int percent = 0; percent <= 100; percent += 25) {
    double y = std::round(top + (100 - percent) / 100.0 * (height - 1)) + 0.5;
    cairo_move_to(cr, layout.scale_bar_x + kScaleBarWidth, y);
    cairo_line_to(cr, layout.scale_bar_x + kScaleBarWidth + 4, y);
    cairo_stroke(cr);
    draw_text(cr, labels_x, y, std::to_string(percent), kTickText, Align::kStart, Align::kCenter);
  }
  std::string caption = "% of true class";
  if (text_width(caption, kTickText) > height) caption = "%";
  draw_text(cr, labels_x + text_width("100", kTickText) + kChartGap, top + height / 2, caption,
            kTickText, Align::kCenter, Align::kStart, 90.0);
}

}  // namespace

Figure confusion_heatmap_figure(const ConfusionMatrix& matrix,
                                const std::vector<std::string>& class_names,
                                const HeatmapOptions& options) {
  std::vector<std::string> names = class_names_for(class_names, matrix.num_classes());
  Layout layout = plan_layout(names, options);
  return Figure{layout.width, layout.height, [=](cairo_t* cr) {
                  paint_background(cr);
                  draw_axis_labels(cr, layout, names, options);
                  draw_cells(cr, layout, matrix, options);
                  draw_scale_bar(cr, layout, options);
                }};
}

void write_confusion_heatmap_png(const std::filesystem::path& path, const ConfusionMatrix& matrix,
                                 const std::vector<std::string>& class_names,
                                 const HeatmapOptions& options) {
  write_figure(path, confusion_heatmap_figure(matrix, class_names, options));
}

}  // namespace cae
