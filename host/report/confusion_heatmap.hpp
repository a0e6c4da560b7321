// The confusion matrix as a picture: one coloured cell per (true, predicted)
// pair, coloured by the share of the true class's samples that landed there.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "report/colormap.hpp"
#include "report/figure.hpp"
#include "report/metrics.hpp"

namespace cae {

struct HeatmapOptions {
  // Side of one cell in pixels. Large matrices get smaller cells so the
  // picture stays under about 1000 px; never below 8.
  int cell_px = 48;
  bool grid_lines = true;
  // Writes the row percentage into each cell when the cell is large enough.
  bool show_values = true;
  ColorMap color_map = ColorMap::kBlues;
  // Drawn above the matrix when not empty.
  std::string title;
};

// Rows are true classes (top to bottom), columns predicted classes (left to
// right), with class names along both axes and a colour scale on the right.
// `class_names` may be empty (numbers are used) or hold one name per class;
// otherwise std::invalid_argument.
Figure confusion_heatmap_figure(const ConfusionMatrix& matrix,
                                const std::vector<std::string>& class_names,
                                const HeatmapOptions& options = {});

// Writes the PNG and the SVG next to it (write_figure); IoError (a
// std::runtime_error) names the path on failure.
void write_confusion_heatmap_png(const std::filesystem::path& path, const ConfusionMatrix& matrix,
                                 const std::vector<std::string>& class_names,
                                 const HeatmapOptions& options = {});

}  // namespace cae
