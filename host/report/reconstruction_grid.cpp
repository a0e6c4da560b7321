#include "report/reconstruction_grid.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "report/bitmap_text.hpp"
#include "report/png_file.hpp"

namespace cae {
namespace {

constexpr int kMaxRows = 100;
constexpr int kPadding = 12;
constexpr int kGap = 8;
constexpr Rgb kInk{40, 40, 40};
constexpr Rgb kNotANumber{255, 0, 255};

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

// Reads pixel (x, y) of a CHW image and turns it into a colour; `transform`
// maps each channel's raw value (NaN passes through to be flagged).
template <typename Transform>
Rgb pixel_color(const ReconstructionGridOptions& options, int x, int y, Transform transform) {
  std::size_t plane = static_cast<std::size_t>(options.height) * options.width;
  std::size_t offset = static_cast<std::size_t>(y) * options.width + x;
  float channel[3];
  for (int c = 0; c < 3; ++c) {
    int source_channel = options.channels == 1 ? 0 : c;
    channel[c] = transform(source_channel * plane + offset);
    if (std::isnan(channel[c])) return kNotANumber;
  }
  return Rgb{to_byte(channel[0]), to_byte(channel[1]), to_byte(channel[2])};
}

template <typename Transform>
void draw_tile(RgbImage& image, int left, int top, const ReconstructionGridOptions& options,
               Transform transform) {
  int s = options.scale;
  for (int y = 0; y < options.height; ++y) {
    for (int x = 0; x < options.width; ++x) {
      image.fill_rect(left + x * s, top + y * s, s, s, pixel_color(options, x, y, transform));
    }
  }
}

std::string difference_title(double gain) {
  std::ostringstream title;
  title << "error x" << gain;
  return title.str();
}

}  // namespace

RgbImage render_reconstruction_grid(const std::vector<ReconstructionSample>& samples,
                                    const ReconstructionGridOptions& options) {
  check_options(samples, options);
  const int tile_width = options.width * options.scale;
  const int tile_height = options.height * options.scale;
  const int separator = options.separator_px;
  const int rows = static_cast<int>(samples.size());

  // Short words, so the titles fit over the tiles in the larger text.
  const std::string titles[3] = {"original", "decoded", difference_title(options.difference_gain)};
  int title_scale = 2;
  for (const std::string& title : titles) {
    while (title_scale > 1 && text_width(title, title_scale) > tile_width) --title_scale;
  }
  int label_scale = tile_height >= 48 ? 2 : 1;
  int label_width = 0;
  for (const ReconstructionSample& sample : samples) {
    label_width = std::max(label_width, text_width(sample.label, label_scale));
  }

  const int tiles_x = kPadding + (label_width > 0 ? label_width + kGap : 0);
  const int tiles_y = kPadding + text_height(title_scale) + kGap;
  const int width = tiles_x + 3 * tile_width + 2 * separator + kPadding;
  const int height = tiles_y + rows * tile_height + (rows - 1) * separator + kPadding;
  RgbImage image(width, height);

  for (int column = 0; column < 3; ++column) {
    int column_x = tiles_x + column * (tile_width + separator);
    draw_text(image, column_x + (tile_width - text_width(titles[column], title_scale)) / 2,
              kPadding, titles[column], kInk, title_scale);
  }

  const float gain = static_cast<float>(options.difference_gain);
  for (int row = 0; row < rows; ++row) {
    const ReconstructionSample& sample = samples[row];
    int top = tiles_y + row * (tile_height + separator);
    draw_text(image, tiles_x - kGap - text_width(sample.label, label_scale),
              top + (tile_height - 7 * label_scale) / 2, sample.label, kInk, label_scale);
    auto original = [&](std::size_t i) { return sample.original[i]; };
    auto reconstruction = [&](std::size_t i) { return sample.reconstruction[i]; };
    auto difference = [&](std::size_t i) {
      return std::fabs(sample.original[i] - sample.reconstruction[i]) * gain;
    };
    int x = tiles_x;
    draw_tile(image, x, top, options, original);
    x += tile_width + separator;
    draw_tile(image, x, top, options, reconstruction);
    x += tile_width + separator;
    draw_tile(image, x, top, options, difference);
  }
  return image;
}

void write_reconstruction_grid_png(const std::filesystem::path& path,
                                   const std::vector<ReconstructionSample>& samples,
                                   const ReconstructionGridOptions& options) {
  write_png(path, render_reconstruction_grid(samples, options));
}

}  // namespace cae
