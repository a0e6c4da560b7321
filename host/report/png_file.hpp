// PNG encoding of report pictures.
#pragma once

#include <filesystem>
#include <string>

#include "report/rgb_image.hpp"

namespace cae {

// The complete PNG file for `image`. Throws std::runtime_error if encoding fails.
std::string encode_png(const RgbImage& image);

// Encodes `image` and writes it atomically: the file under `path` is either
// complete or absent. Throws IoError (a std::runtime_error) naming `path` on failure.
void write_png(const std::filesystem::path& path, const RgbImage& image);

}  // namespace cae
