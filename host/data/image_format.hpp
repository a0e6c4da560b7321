#pragma once
// What an image file must be before its bytes reach the decoder (stb_image):
// PNG, JPEG or BMP by its first bytes, whatever its name says (stb_image
// would also decode GIF, PSD, TGA, HDR and more, which cae does not promise
// to read), and, for JPEG, Huffman tables that fit: the stb_image Debian
// ships (2.27) writes past its table arrays when a table declares more than
// 256 codes, so such a file is refused here first.

#include <string>

namespace cae {

enum class ImageFormat { kPng, kJpeg, kBmp };

// The file's format, checked as above. DataError naming `path` otherwise.
ImageFormat checked_image_format(const std::string& bytes, const std::string& path);

}  // namespace cae
