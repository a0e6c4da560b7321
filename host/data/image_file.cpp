#include "data/image_file.hpp"

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "data/data_error.hpp"

namespace cae {
namespace {

struct StbFree {
  void operator()(unsigned char* pixels) const { stbi_image_free(pixels); }
};

std::string reason() {
  const char* text = stbi_failure_reason();
  return text ? text : "unknown reason";
}

// Source coordinate ranges of each output index along one axis, as
// (first source index, weights) so that sum(weights) == 1.
struct Footprint {
  int first = 0;
  std::vector<double> weights;
};

std::vector<Footprint> footprints(int source, int target) {
  std::vector<Footprint> result(static_cast<size_t>(target));
  const double scale = double(source) / double(target);
  for (int o = 0; o < target; ++o) {
    const double begin = o * scale, end = (o + 1) * scale;
    Footprint& f = result[size_t(o)];
    f.first = int(std::floor(begin));
    const int last = std::min(source - 1, int(std::ceil(end)) - 1);
    for (int s = f.first; s <= last; ++s) {
      const double covered = std::min(end, double(s + 1)) - std::max(begin, double(s));
      f.weights.push_back(covered / scale);
    }
  }
  return result;
}

}  // namespace

std::vector<uint8_t> box_resize(const uint8_t* in, int width, int height, int channels, int side) {
  const std::vector<Footprint> across = footprints(width, side), down = footprints(height, side);
  // Horizontal pass into doubles (height x side), then vertical.
  std::vector<double> rows(size_t(height) * size_t(side) * size_t(channels));
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < side; ++x) {
      const Footprint& f = across[size_t(x)];
      for (int c = 0; c < channels; ++c) {
        double sum = 0;
        for (size_t k = 0; k < f.weights.size(); ++k) {
          sum += f.weights[k] * in[(size_t(y) * size_t(width) + size_t(f.first) + k) * size_t(channels) + size_t(c)];
        }
        rows[(size_t(y) * size_t(side) + size_t(x)) * size_t(channels) + size_t(c)] = sum;
      }
    }
  }
  std::vector<uint8_t> out(size_t(side) * size_t(side) * size_t(channels));
  for (int y = 0; y < side; ++y) {
    const Footprint& f = down[size_t(y)];
    for (int x = 0; x < side; ++x) {
      for (int c = 0; c < channels; ++c) {
        double sum = 0;
        for (size_t k = 0; k < f.weights.size(); ++k) {
          sum += f.weights[k] * rows[((size_t(f.first) + k) * size_t(side) + size_t(x)) * size_t(channels) + size_t(c)];
        }
        out[(size_t(y) * size_t(side) + size_t(x)) * size_t(channels) + size_t(c)] =
            uint8_t(std::lround(std::clamp(sum, 0.0, 255.0)));
      }
    }
  }
  return out;
}

ImageFileInfo probe_image_file(const std::string& path) {
  ImageFileInfo info;
  int components = 0;
  if (!stbi_info(path.c_str(), &info.width, &info.height, &components)) {
    throw DataError("cannot read image " + path + ": " + reason());
  }
  info.channels = components <= 2 ? 1 : 3;
  return info;
}

void load_image_file(const std::string& path, int channels, int side, ResizeMode mode,
                     uint8_t* chw) {
  int width = 0, height = 0, components = 0;
  std::unique_ptr<unsigned char, StbFree> decoded(stbi_load(path.c_str(), &width, &height, &components, 0));
  if (!decoded) throw DataError("cannot read image " + path + ": " + reason());
  const int file_channels = components <= 2 ? 1 : 3;
  if (file_channels > channels) {
    throw DataError(path + " is a colour image in a grayscale set");
  }
  // Interleaved, alpha dropped, grayscale repeated into every channel wanted.
  std::vector<uint8_t> pixels(size_t(width) * size_t(height) * size_t(channels));
  for (size_t p = 0; p < size_t(width) * size_t(height); ++p) {
    for (int c = 0; c < channels; ++c) {
      const int from = file_channels == 1 ? 0 : c;
      pixels[p * size_t(channels) + size_t(c)] = decoded.get()[p * size_t(components) + size_t(from)];
    }
  }
  std::vector<uint8_t> square;
  if (width == side && height == side) {
    square = std::move(pixels);
  } else if (mode == ResizeMode::kBox) {
    square = box_resize(pixels.data(), width, height, channels, side);
  } else {
    if (width < side || height < side) {
      throw DataError(path + " is " + std::to_string(width) + "x" + std::to_string(height) +
                      ", smaller than the " + std::to_string(side) + "x" + std::to_string(side) +
                      " crop; use --resize box or a smaller --image-size");
    }
    const int x0 = (width - side) / 2, y0 = (height - side) / 2;
    square.resize(size_t(side) * size_t(side) * size_t(channels));
    for (int y = 0; y < side; ++y) {
      std::copy_n(pixels.data() + ((size_t(y0 + y) * size_t(width)) + size_t(x0)) * size_t(channels),
                  size_t(side) * size_t(channels),
                  square.data() + size_t(y) * size_t(side) * size_t(channels));
    }
  }
  const size_t plane = size_t(side) * size_t(side);
  for (size_t p = 0; p < plane; ++p) {
    for (int c = 0; c < channels; ++c) chw[size_t(c) * plane + p] = square[p * size_t(channels) + size_t(c)];
  }
}

}  // namespace cae
