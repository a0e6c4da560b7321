#include "data/image_file.hpp"

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

#include "data/data_error.hpp"
#include "data/data_file.hpp"
#include "data/image_format.hpp"

namespace cae {
namespace {

struct StbFree {
  void operator()(unsigned char* pixels) const { stbi_image_free(pixels); }
};

// stb_image's reason, made printable: some reasons carry bytes of the file
// (an unknown PNG chunk's name), which must not break the one-line message.
std::string reason() {
  const char* text = stbi_failure_reason();
  std::string printable = text ? text : "unknown reason";
  for (char& c : printable) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  return printable;
}

// The whole file, read through open_data_file (a FIFO or device is refused
// before any read could block; a file of an output set must be that set's),
// and checked to be a format cae decodes (image_format.hpp).
std::string image_bytes(const std::string& path) {
  const UniqueFile file = open_data_file(path);
  std::string bytes;
  char chunk[1 << 16];
  size_t got = 0;
  while ((got = std::fread(chunk, 1, sizeof chunk, file.get())) > 0) bytes.append(chunk, got);
  if (std::ferror(file.get())) throw DataError("cannot read image " + path);
  return bytes;
}

int stb_length(const std::string& bytes, const std::string& path) {
  if (bytes.size() > size_t(std::numeric_limits<int>::max())) {
    throw DataError("cannot read image " + path + ": the file is over 2 GiB");
  }
  return int(bytes.size());
}

const stbi_uc* stb_bytes(const std::string& bytes) {
  return reinterpret_cast<const stbi_uc*>(bytes.data());
}

// Refuses an image whose pixels would not fit the limit, or its file, from
// its header, before the decoder allocates them (a few bytes can declare
// 30000x30000).
void require_decodable_size(const std::string& bytes, int width, int height,
                            const std::string& path) {
  if (width <= 0 || height <= 0 || int64_t(width) * int64_t(height) > kMaxImagePixels) {
    throw DataError("cannot read image " + path + ": it is " + std::to_string(width) + "x" +
                    std::to_string(height) + " pixels, more than cae decodes (" +
                    std::to_string(kMaxImagePixels) + " pixels)");
  }
  require_room_for_pixels(checked_image_format(bytes, path), bytes, width, height, path);
}

// The size a PNG's or BMP's header declares, refused when too large before
// stb_image looks: it gives up on a side above 2^24 with "unknown image
// type", which would hide that the file is a valid image too large to decode.
// (A JPEG's sides are at most 65,535, which stb_image reports.)
void require_declared_size(const std::string& bytes, const std::string& path) {
  const auto byte = [&bytes](size_t i) { return uint64_t(static_cast<unsigned char>(bytes[i])); };
  int64_t width = 0, height = 0;
  const ImageFormat format = checked_image_format(bytes, path);
  if (format == ImageFormat::kPng && bytes.size() >= 24) {  // IHDR: big-endian width, height
    width = int64_t(byte(16) << 24 | byte(17) << 16 | byte(18) << 8 | byte(19));
    height = int64_t(byte(20) << 24 | byte(21) << 16 | byte(22) << 8 | byte(23));
  } else if (format == ImageFormat::kBmp && bytes.size() >= 26) {  // little-endian, height signed
    width = int32_t(uint32_t(byte(18) | byte(19) << 8 | byte(20) << 16 | byte(21) << 24));
    height = int32_t(uint32_t(byte(22) | byte(23) << 8 | byte(24) << 16 | byte(25) << 24));
    height = height < 0 ? -height : height;
  }
  // Divided, not multiplied: two 32-bit sides overflow a 64-bit product.
  if (width > 0 && height > 0 && width > kMaxImagePixels / height) {
    throw DataError("cannot read image " + path + ": it is " + std::to_string(width) + "x" +
                    std::to_string(height) + " pixels, more than cae decodes (" +
                    std::to_string(kMaxImagePixels) + " pixels)");
  }
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
  std::string bytes = image_bytes(path);
  if (checked_image_format(bytes, path) == ImageFormat::kPng) bytes = without_empty_png_data(bytes);
  require_declared_size(bytes, path);
  if (!stbi_info_from_memory(stb_bytes(bytes), stb_length(bytes, path), &info.width, &info.height,
                             &components)) {
    throw DataError("cannot read image " + path + ": " + reason());
  }
  require_decodable_size(bytes, info.width, info.height, path);
  info.channels = components <= 2 ? 1 : 3;
  return info;
}

void load_image_file(const std::string& path, int channels, int side, ResizeMode mode,
                     uint8_t* chw) {
  int width = 0, height = 0, components = 0;
  std::string bytes = image_bytes(path);
  if (checked_image_format(bytes, path) == ImageFormat::kPng) bytes = without_empty_png_data(bytes);
  require_declared_size(bytes, path);
  const int length = stb_length(bytes, path);
  if (!stbi_info_from_memory(stb_bytes(bytes), length, &width, &height, &components)) {
    throw DataError("cannot read image " + path + ": " + reason());
  }
  require_decodable_size(bytes, width, height, path);
  std::unique_ptr<unsigned char, StbFree> decoded(
      stbi_load_from_memory(stb_bytes(bytes), length, &width, &height, &components, 0));
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
