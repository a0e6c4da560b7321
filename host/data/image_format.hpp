#pragma once
// What an image file must be before its bytes reach the decoder (stb_image):
// PNG, JPEG or BMP by its first bytes, whatever its name says (stb_image
// would also decode GIF, PSD, TGA, HDR and more, which cae does not promise
// to read), and, for JPEG, Huffman tables that fit: the stb_image Debian
// ships (2.27) writes past its table arrays when a table declares more than
// 256 codes, so such a file is refused here first, and so is a scan that
// uses a Huffman table the file has not defined before it. A PNG chunk that declares
// more bytes than the file holds, or that the file ends inside, is refused
// too: stb_image allocates a chunk's declared length (up to 2 GiB) before
// reading it.

#include <string>

namespace cae {

enum class ImageFormat { kPng, kJpeg, kBmp };

// The file's format, checked as above. DataError naming `path` otherwise.
ImageFormat checked_image_format(const std::string& bytes, const std::string& path);

// The PNG without its empty image-data (IDAT) chunks, which carry nothing
// and which stb_image 2.27 copies from into a buffer it has not allocated
// yet (a null pointer) when one comes first; other bytes unchanged.
std::string without_empty_png_data(const std::string& bytes);

// Refuses (DataError naming `path`) a file too short to hold the
// width x height pixels its header declares, before they are decoded: the
// decoder would read zeros past the end and make a whole image of a few
// bytes. A BMP (stb_image reads only uncompressed ones) must hold every row;
// a JPEG at least one bit per 8x8 block of its first component. (PNG's
// decoder finds a short file itself.)
void require_room_for_pixels(ImageFormat format, const std::string& bytes, int width, int height,
                             const std::string& path);

}  // namespace cae
