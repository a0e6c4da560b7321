// Reading a PNG back (with stb_image) to check what the writers produced.
#pragma once

#include <filesystem>
#include <optional>

#include "report/rgb_image.hpp"

namespace cae::test {

// The decoded picture, or nothing if the file is missing or not a valid PNG.
std::optional<RgbImage> decode_png_file(const std::filesystem::path& path);

}  // namespace cae::test
