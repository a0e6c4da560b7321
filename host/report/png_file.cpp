#include "report/png_file.hpp"

#include <stdexcept>

#include "io/atomic_file.hpp"

// File-local implementation: no stbi_* symbols leave this object, so nothing
// clashes with another copy of stb linked into the same program.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

namespace cae {
namespace {

void append_bytes(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                             static_cast<std::size_t>(size));
}

}  // namespace

std::string encode_png(const RgbImage& image) {
  std::string bytes;
  int ok = stbi_write_png_to_func(append_bytes, &bytes, image.width(), image.height(), 3,
                                  image.data(), image.stride_bytes());
  if (!ok) throw std::runtime_error("PNG encoding failed");
  return bytes;
}

void write_png(const std::filesystem::path& path, const RgbImage& image) {
  write_file_atomically(path.string(), encode_png(image));
}

}  // namespace cae
