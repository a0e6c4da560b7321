#include "report/reconstruction_grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "report/plot_frame.hpp"

namespace cae {
namespace {

constexpr int kMaxRows = 100;
constexpr double kGridPadding = 12.0;

void check_options(const std::vector<ReconstructionSample>& samples,
                   const ReconstructionGridOptions& options) {
  if (samples.empty()) throw std::invalid_argument("reconstruction grid: no samples");
  if (samples.size() > static_cast<std::size_t>(kMaxRows)) {
    throw std::invalid_argument("reconstruction grid: " + std::to_string(samples.size()) +
                                " samples, at most " + std::to_string(kMaxRows));
  }
  if (options.channels != 1 && options.channels != 3) {
    throw std::invalid_argument("reconstruction grid: images need 1 or 3 channels, not " +
                                std::to_string(options.channels));
  }
  if (options.height < 1 || options.width < 1 || options.scale < 1 || options.separator_px < 0 ||
      !(options.difference_gain > 0.0)) {
    throw std::invalid_argument(
        "reconstruction grid: image size, scale and difference gain must be positive");
  }
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (samples[i].original == nullptr || samples[i].reconstruction == nullptr) {
      throw std::invalid_argument("reconstruction grid: sample " + std::to_string(i) +
                                  " has no image data");
    }
  }
}

std::uint8_t to_byte(float value) {
  return static_cast<std::uint8_t>(std::lround(std::clamp(value, 0.0f, 1.0f) * 255.0f));
}

// One tile: a CHW image already scaled up (each source pixel a block of
// scale x scale), so neither surface smooths it when it is painted 1:1.
// `transform` maps each channel's raw value; NaN is painted magenta.
using SurfacePtr = std::shared_ptr<cairo_surface_t>;

template <typename Transform>
SurfacePtr make_tile(const ReconstructionGridOptions& options, Transform transform) {
  const int s = options.scale;
  SurfacePtr tile(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, options.width * s, options.height * s),
      cairo_surface_destroy);
  if (cairo_surface_status(tile.get()) != CAIRO_STATUS_SUCCESS) {
    throw std::runtime_error("reconstruction grid: cannot create a tile");
  }
  cairo_surface_flush(tile.get());
  unsigned char* data = cairo_image_surface_get_data(tile.get());
  const int stride = cairo_image_surface_get_stride(tile.get());
  const std::size_t plane = static_cast<std::size_t>(options.height) * options.width;
  for (int y = 0; y < options.height * s; ++y) {
    auto* row = reinterpret_cast<std::uint32_t*>(data + static_cast<std::size_t>(y) * stride);
    for (int x = 0; x < options.width * s; ++x) {
      std::size_t offset = static_cast<std::size_t>(y / s) * options.width + x / s;
      std::uint32_t rgb[3];
      bool nan = false;
      for (int c = 0; c < 3; ++c) {
        float value = transform((options.channels == 1 ? 0 : c) * plane + offset);
        nan = nan || std::isnan(value);
        rgb[c] = to_byte(value);
      }
      // RGB24 keeps each pixel as 0x00RRGGBB in native byte order.
      row[x] = nan ? 0xFF00FFu : (rgb[0] << 16) | (rgb[1] << 8) | rgb[2];
    }
  }
  cairo_surface_mark_dirty(tile.get());
  return tile;
}

std::string difference_title(double gain) {
  std::ostringstream title;
  title << "error x" << gain;
  return title.str();
}

struct GridRow {
  std::string label;
  SurfacePtr tiles[3];
};

}  // namespace

Figure reconstruction_grid_figure(const std::vector<ReconstructionSample>& samples,
                                  const ReconstructionGridOptions& options) {
  check_options(samples, options);
  const double tile_width = options.width * options.scale;
  const double tile_height = options.height * options.scale;
  const double separator = options.separator_px;
  const int rows = static_cast<int>(samples.size());
  const float gain = static_cast<float>(options.difference_gain);

  std::vector<GridRow> grid;
  for (const ReconstructionSample& sample : samples) {
    auto original = [&](std::size_t i) { return sample.original[i]; };
    auto reconstruction = [&](std::size_t i) { return sample.reconstruction[i]; };
    auto difference = [&](std::size_t i) {
      return std::fabs(sample.original[i] - sample.reconstruction[i]) * gain;
    };
    grid.push_back({sample.label,
                    {make_tile(options, original), make_tile(options, reconstruction),
                     make_tile(options, difference)}});
  }

  // Short words, so the titles fit over the tiles.
  std::vector<std::string> titles = {"original", "decoded",
                                     difference_title(options.difference_gain)};
  TextStyle title_style = kLabelText;
  for (const std::string& title : titles) {
    while (title_style.size > 8.0 && text_width(title, title_style) > tile_width) {
      title_style.size -= 1.0;
    }
  }
  TextStyle label_style{tile_height >= 48 ? 13.0 : 10.0};
  double label_width = 0.0;
  for (const ReconstructionSample& sample : samples) {
    label_width = std::max(label_width, text_width(sample.label, label_style));
  }
  const double tiles_x = std::ceil(kGridPadding + (label_width > 0 ? label_width + kChartGap : 0));
  const double tiles_y = std::ceil(kGridPadding + text_height(title_style) + kChartGap);
  const int width = static_cast<int>(tiles_x + 3 * tile_width + 2 * separator + kGridPadding);
  const int height =
      static_cast<int>(tiles_y + rows * tile_height + (rows - 1) * separator + kGridPadding);
  return Figure{width, height, [=](cairo_t* cr) {
                  paint_background(cr);
                  for (int column = 0; column < 3; ++column) {
                    double x = tiles_x + column * (tile_width + separator);
                    draw_text(cr, x + tile_width / 2, kGridPadding, titles[column], title_style,
                              Align::kCenter);
                  }
                  for (int row = 0; row < rows; ++row) {
                    double top = tiles_y + row * (tile_height + separator);
                    draw_text(cr, tiles_x - kChartGap, top + tile_height / 2, grid[row].label,
                              label_style, Align::kEnd, Align::kCenter);
                    for (int column = 0; column < 3; ++column) {
                      double x = tiles_x + column * (tile_width + separator);
                      cairo_set_source_surface(cr, grid[row].tiles[column].get(), x, top);
                      cairo_paint(cr);
                    }
                  }
                }};
}

void write_reconstruction_grid_png(const std::filesystem::path& path,
                                   const std::vector<ReconstructionSample>& samples,
                                   const ReconstructionGridOptions& options) {
  write_figure(path, reconstruction_grid_figure(samples, options));
}

}  // namespace cae
