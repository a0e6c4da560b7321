// Autoencoder reconstructions side by side with their inputs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "report/figure.hpp"

namespace cae {

// One row of the grid: an input image and what the autoencoder made of it,
// both float CHW (one image of an NCHW batch) with values in [0, 1].
// The pointers must each reach channels * height * width floats.
struct ReconstructionSample {
  std::string label;  // shown left of the row, e.g. the class name
  const float* original = nullptr;
  const float* reconstruction = nullptr;
};

struct ReconstructionGridOptions {
  int channels = 3;  // 3 (RGB) or 1 (grey)
  int height = 32;
  int width = 32;
  int scale = 3;         // each source pixel becomes scale x scale pixels
  int separator_px = 4;  // gap between tiles
  // The third column ("error x<gain>") shows |original - reconstruction| *
  // gain per channel, clamped, so small errors are visible.
  double difference_gain = 3.0;
};

// Rows = samples (up to 100), columns = original, reconstruction ("decoded"),
// amplified absolute difference ("error").
// Values outside [0, 1] are clamped; NaN pixels are painted magenta so a
// broken backend cannot hide. Throws std::invalid_argument for no samples,
// null pointers or bad options.
// The pixels are copied into the figure, so `samples` need not outlive it.
Figure reconstruction_grid_figure(const std::vector<ReconstructionSample>& samples,
                                  const ReconstructionGridOptions& options = {});

// Writes the PNG and the SVG next to it (write_figure); IoError (a
// std::runtime_error) names the path on failure.
void write_reconstruction_grid_png(const std::filesystem::path& path,
                                   const std::vector<ReconstructionSample>& samples,
                                   const ReconstructionGridOptions& options = {});

}  // namespace cae
