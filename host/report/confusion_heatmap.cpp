#include "report/confusion_heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "report/bitmap_text.hpp"
#include "report/class_names.hpp"
#include "report/png_file.hpp"

namespace cae {
namespace {

constexpr int kMaxGridPx = 960;
constexpr int kMinCellPx = 8;
constexpr int kPadding = 16;
constexpr int kGap = 8;
constexpr int kScaleBarWidth = 16;
constexpr Rgb kInk{40, 40, 40};
constexpr Rgb kFrame{110, 110, 110};
constexpr Rgb kGridLine{205, 208, 214};
constexpr Rgb kNoData{225, 225, 225};

int cell_size(const HeatmapOptions& options, int num_classes) {
  int fitting = kMaxGridPx / num_classes;
  return std::max(kMinCellPx, std::min(options.cell_px, fitting));
}

// The largest text scale at which `text` fits into `room` pixels, 0 if none.
int fitting_scale(const std::string& text, int room, int max_scale) {
  for (int scale = max_scale; scale >= 1; --scale) {
    if (text_width(text, scale) <= room && text_height(scale) <= room) return scale;
  }
  return 0;
}

std::string percent_label(double fraction, std::int64_t count) {
  if (count == 0) return "0";
  long rounded = std::lround(fraction * 100.0);
  // A handful of samples in a big class would round to a misleading "0".
  return rounded == 0 ? "<1" : std::to_string(rounded);
}

// Where everything goes; computed first so the image can be sized exactly.
struct Layout {
  int cell = 0;
  // Short names (such as class numbers) fit above their column; longer ones
  // are turned upright.
  bool upright_column_names = false;
  int column_names_height = 0;
  int label_scale = 1;
  int title_scale = 2;
  int grid_x = 0;
  int grid_y = 0;
  int grid_size = 0;
  int scale_bar_x = 0;
  int width = 0;
  int height = 0;
};

Layout plan_layout(const std::vector<std::string>& names, const HeatmapOptions& options) {
  Layout layout;
  int n = static_cast<int>(names.size());
  layout.cell = cell_size(options, n);
  layout.label_scale = layout.cell >= 24 ? 2 : 1;
  layout.grid_size = n * layout.cell;

  int longest_name = 0;
  for (const std::string& name : names) {
    longest_name = std::max(longest_name, text_width(name, layout.label_scale));
  }
  int axis_title_height = text_height(layout.title_scale);
  layout.upright_column_names = longest_name > layout.cell - 4;
  layout.column_names_height =
      layout.upright_column_names ? longest_name : text_height(layout.label_scale);

  layout.grid_x = kPadding + axis_title_height + kGap + longest_name + kGap;
  int top = kPadding;
  if (!options.title.empty()) top += axis_title_height + 2 * kGap;
  top += axis_title_height + kGap;  // "predicted class"
  layout.grid_y = top + layout.column_names_height + kGap;

  layout.scale_bar_x = layout.grid_x + layout.grid_size + 3 * kGap;
  int scale_labels_width = text_width("100", layout.label_scale);
  layout.width = layout.scale_bar_x + kScaleBarWidth + kGap + scale_labels_width + kGap +
                 text_height(layout.label_scale) + kPadding;
  layout.height = layout.grid_y + layout.grid_size + kPadding;
  // A long title may need more room than the matrix.
  if (!options.title.empty()) {
    layout.width =
        std::max(layout.width, 2 * kPadding + text_width(options.title, layout.title_scale));
  }
  return layout;
}

void draw_axis_labels(RgbImage& image, const Layout& layout, const std::vector<std::string>& names,
                      const HeatmapOptions& options) {
  int scale = layout.label_scale;
  int title_height = text_height(layout.title_scale);
  int y = kPadding;
  if (!options.title.empty()) {
    int x = (image.width() - text_width(options.title, layout.title_scale)) / 2;
    draw_text(image, x, y, options.title, kInk, layout.title_scale);
    y += title_height + 2 * kGap;
  }
  const std::string predicted_title = "predicted class";
  int predicted_x =
      layout.grid_x + (layout.grid_size - text_width(predicted_title, layout.title_scale)) / 2;
  draw_text(image, std::max(kPadding, predicted_x), y, predicted_title, kInk, layout.title_scale);

  const std::string true_title = "true class";
  int true_y = layout.grid_y + (layout.grid_size - text_width(true_title, layout.title_scale)) / 2;
  draw_text_vertical(image, kPadding, std::max(kPadding, true_y), true_title, kInk,
                     layout.title_scale);

  int name_height = text_height(scale);
  for (int i = 0; i < static_cast<int>(names.size()); ++i) {
    int cell_start = i * layout.cell;
    int centered = (layout.cell - name_height) / 2;
    // Row names right-aligned against the grid.
    draw_text(image, layout.grid_x - kGap - text_width(names[i], scale),
              layout.grid_y + cell_start + centered, names[i], kInk, scale);
    int name_width = text_width(names[i], scale);
    if (layout.upright_column_names) {  // ending just above the grid
      draw_text_vertical(image, layout.grid_x + cell_start + centered,
                         layout.grid_y - kGap - name_width, names[i], kInk, scale);
    } else {
      draw_text(image, layout.grid_x + cell_start + (layout.cell - name_width) / 2,
                layout.grid_y - kGap - name_height, names[i], kInk, scale);
    }
  }
}

void draw_cells(RgbImage& image, const Layout& layout, const ConfusionMatrix& matrix,
                const HeatmapOptions& options) {
  int n = matrix.num_classes();
  int text_room = layout.cell - 4;
  int value_scale = options.show_values ? fitting_scale("100", text_room, 2) : 0;
  for (int t = 0; t < n; ++t) {
    for (int p = 0; p < n; ++p) {
      double fraction = matrix.row_fraction(t, p);
      bool has_data = std::isfinite(fraction);
      Rgb fill = has_data ? map_color(options.color_map, fraction) : kNoData;
      int x = layout.grid_x + p * layout.cell;
      int y = layout.grid_y + t * layout.cell;
      image.fill_rect(x, y, layout.cell, layout.cell, fill);
      if (value_scale == 0 || !has_data) continue;
      std::string label = percent_label(fraction, matrix.count(t, p));
      Rgb ink = readable_text_color(fill);
      // Empty cells keep their "0" faint so the eye goes to what is there.
      if (matrix.count(t, p) == 0) ink = mix(fill, ink, 0.3);
      draw_text(image, x + (layout.cell - text_width(label, value_scale)) / 2,
                y + (layout.cell - 7 * value_scale) / 2, label, ink, value_scale);
    }
  }
  if (options.grid_lines) {
    for (int i = 1; i < n; ++i) {
      int offset = i * layout.cell;
      image.fill_rect(layout.grid_x + offset, layout.grid_y, 1, layout.grid_size, kGridLine);
      image.fill_rect(layout.grid_x, layout.grid_y + offset, layout.grid_size, 1, kGridLine);
    }
  }
  image.stroke_rect(layout.grid_x - 1, layout.grid_y - 1, layout.grid_size + 2,
                    layout.grid_size + 2, kFrame);
}

// A vertical colour ramp from 100 % (top) to 0 % (bottom) with labelled ticks
// and a caption (the tick labels carry no '%': the font's looks like a 'Z').
void draw_scale_bar(RgbImage& image, const Layout& layout, const HeatmapOptions& options) {
  int top = layout.grid_y;
  int height = layout.grid_size;
  for (int row = 0; row < height; ++row) {
    double value = 1.0 - static_cast<double>(row) / std::max(1, height - 1);
    image.fill_rect(layout.scale_bar_x, top + row, kScaleBarWidth, 1,
                    map_color(options.color_map, value));
  }
  image.stroke_rect(layout.scale_bar_x - 1, top - 1, kScaleBarWidth + 2, height + 2, kFrame);
  int scale = layout.label_scale;
  int labels_x = layout.scale_bar_x + kScaleBarWidth + kGap;
  for (int percent = 0; percent <= 100; percent += 25) {
    int y = top + static_cast<int>(std::lround((100 - percent) / 100.0 * (height - 1)));
    image.fill_rect(layout.scale_bar_x + kScaleBarWidth, y, 4, 1, kFrame);
    draw_text(image, labels_x, y - 7 * scale / 2, std::to_string(percent), kInk, scale);
  }
  std::string caption = "percent of true class";
  if (text_width(caption, scale) > height) caption = "percent";
  draw_text_vertical(image, labels_x + text_width("100", scale) + kGap,
                     top + (height - text_width(caption, scale)) / 2, caption, kInk, scale);
}

}  // namespace

RgbImage render_confusion_heatmap(const ConfusionMatrix& matrix,
                                  const std::vector<std::string>& class_names,
                                  const HeatmapOptions& options) {
  std::vector<std::string> names = class_names_for(class_names, matrix.num_classes());
  Layout layout = plan_layout(names, options);
  RgbImage image(layout.width, layout.height);
  draw_axis_labels(image, layout, names, options);
  draw_cells(image, layout, matrix, options);
  draw_scale_bar(image, layout, options);
  return image;
}

void write_confusion_heatmap_png(const std::filesystem::path& path, const ConfusionMatrix& matrix,
                                 const std::vector<std::string>& class_names,
                                 const HeatmapOptions& options) {
  write_png(path, render_confusion_heatmap(matrix, class_names, options));
}

}  // namespace cae
