#include "decode_png.hpp"

#include "temp_dir.hpp"

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <stb/stb_image.h>
#pragma GCC diagnostic pop

namespace cae::test {

std::optional<RgbImage> decode_png_file(const std::filesystem::path& path) {
  std::string bytes = read_file(path);
  if (bytes.empty()) return std::nullopt;
  int width = 0, height = 0, channels = 0;
  stbi_uc* pixels =
      stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(bytes.data()),
                            static_cast<int>(bytes.size()), &width, &height, &channels, 3);
  if (pixels == nullptr) return std::nullopt;
  RgbImage image(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const stbi_uc* p = pixels + (static_cast<std::size_t>(y) * width + x) * 3;
      image.set(x, y, Rgb{p[0], p[1], p[2]});
    }
  }
  stbi_image_free(pixels);
  return image;
}

}  // namespace cae::test
