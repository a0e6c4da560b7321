// What an image file must be before stb_image sees it (data/image_format.hpp)
// and the limits the image reader keeps (data/image_file.hpp).
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <vector>

#include "data/data_error.hpp"
#include "data/image_file.hpp"
#include "data/image_format.hpp"
#include "io/scratch_dir.hpp"
#include "official_layouts.hpp"

using namespace cae;
namespace fs = std::filesystem;

namespace {

std::string probe_error(const std::string& path) {
  try {
    probe_image_file(path);
  } catch (const DataError& error) {
    return error.what();
  }
  return "(read)";
}

std::string le32(uint32_t v) {
  return {char(v & 0xff), char(v >> 8 & 0xff), char(v >> 16 & 0xff), char(v >> 24 & 0xff)};
}

// A 24-bit BMP header declaring width x height, with `pixels` bytes after it.
std::string bmp_header(uint32_t width, uint32_t height, size_t pixels) {
  std::string info = le32(40) + le32(width) + le32(height) + std::string("\x01\x00\x18\x00", 4) +
                     le32(0) + le32(0) + le32(2835) + le32(2835) + le32(0) + le32(0);
  return "BM" + le32(uint32_t(54 + pixels)) + le32(0) + le32(54) + info + std::string(pixels, '\x40');
}

// A baseline JPEG header whose DC Huffman table declares `codes` codes.
std::string jpeg_with_table(int codes) {
  std::string dqt = std::string("\xff\xdb\x00\x43\x00", 5) + std::string(64, '\x01');
  std::string sof = std::string("\xff\xc0\x00\x0b\x08\x00\x08\x00\x08\x01\x01\x11\x00", 13);
  std::string counts(16, '\0');
  int left = codes;
  for (char& count : counts) {
    const int here = left > 255 ? 255 : left;
    count = char(here);
    left -= here;
  }
  const size_t length = 2 + 17 + size_t(codes);
  std::string dht = std::string("\xff\xc4", 2) + char(length >> 8) + char(length & 0xff) + '\0' +
                    counts + std::string(size_t(codes), '\0');
  return std::string("\xff\xd8", 2) + dqt + sof + dht + std::string("\xff\xd9", 2);
}

}  // namespace

TEST_CASE("image files: only PNG, JPEG and BMP by their first bytes reach the decoder") {
  CHECK(checked_image_format(std::string("\x89PNG\r\n\x1a\n", 8), "a") == ImageFormat::kPng);
  CHECK(checked_image_format("BM....", "a") == ImageFormat::kBmp);
  CHECK(checked_image_format(std::string("\xff\xd8\xff\xd9", 4), "a") == ImageFormat::kJpeg);
  // stb_image would decode a GIF (or PSD, TGA, HDR) named .png; cae refuses it.
  cae::test::ScratchDir dir;
  const std::string gif = dir.file("cat.png");
  cae::test::write_file(gif, "GIF89a\x01\x00\x01\x00\x00\x00\x00;");
  CHECK(probe_error(gif) ==
        "cannot read image " + gif + ": not a PNG, JPEG or BMP file (its first bytes say otherwise)");
}

TEST_CASE("image files: a JPEG Huffman table of more than 256 codes is refused before decoding") {
  // stb_image 2.27 writes past its table arrays for such a table.
  CHECK_NOTHROW(checked_image_format(jpeg_with_table(256), "ok.jpg"));
  CHECK_THROWS_WITH_AS(checked_image_format(jpeg_with_table(257), "bad.jpg"),
                       "cannot read image bad.jpg: a Huffman table declares 257 codes, more than "
                       "256 (a damaged JPEG)",
                       DataError);
  // Also after bytes that are no marker, which stb_image skips.
  std::string skipped = jpeg_with_table(300);
  skipped.insert(2, "\x01\x02\x03");
  CHECK_THROWS_AS(checked_image_format(skipped, "bad.jpg"), DataError);
}

TEST_CASE("image files: a header declaring more than 8192x8192 pixels is refused before decoding") {
  cae::test::ScratchDir dir;
  const std::string huge = dir.file("huge.bmp");
  cae::test::write_file(huge, bmp_header(30000, 30000, 16));  // 66 bytes claiming 2.7 GB of pixels
  CHECK(probe_error(huge) == "cannot read image " + huge +
                                 ": it is 30000x30000 pixels, more than cae decodes (67108864 pixels)");
  std::vector<uint8_t> chw(3 * 4 * 4);
  CHECK_THROWS_AS(load_image_file(huge, 3, 4, ResizeMode::kBox, chw.data()), DataError);
  const std::string small = dir.file("small.bmp");
  cae::test::write_file(small, bmp_header(2, 2, 16));
  CHECK(probe_error(small) == "(read)");
}

TEST_CASE("image files: the decoder's reason stays one printable line, a FIFO is refused unopened") {
  cae::test::ScratchDir dir;
  // A PNG with an unknown critical chunk whose name holds a newline: stb_image
  // puts the name into its reason.
  const std::string png = dir.file("odd.png");
  std::string bytes("\x89PNG\r\n\x1a\n", 8);
  bytes += std::string("\x00\x00\x00\x0dIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x00\x00\x00\x00", 21) +
           std::string(4, '\0');
  bytes += std::string("\x00\x00\x00\x00\nBAD", 8) + std::string(4, '\0');
  cae::test::write_file(png, bytes);
  std::vector<uint8_t> chw(1);
  std::string message;
  try {
    load_image_file(png, 1, 1, ResizeMode::kBox, chw.data());
  } catch (const DataError& error) {
    message = error.what();
  }
  CHECK(message.find("cannot read image " + png) == 0);
  CHECK(message.find('\n') == std::string::npos);
  const std::string fifo = dir.file("pipe.png");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(probe_error(fifo).find(fifo) != std::string::npos);  // and returns: no open blocks
}

TEST_CASE("image files: a file too short for the pixels its header declares is refused before decoding") {
  // stb_image reads zeros past the end of a BMP or JPEG and would make a
  // whole image (here 10,000 pixels) of a 70-byte file.
  cae::test::ScratchDir dir;
  const std::string cut = dir.file("cut.bmp");
  cae::test::write_file(cut, bmp_header(100, 100, 16));
  CHECK(probe_error(cut) ==
        "cannot read image " + cut + ": 70 bytes cannot hold its 100x100 pixels (truncated?)");
  // A JPEG needs at least a bit per 8x8 block: 4096x4096 pixels in 100 bytes cannot be.
  const std::string jpeg = jpeg_with_table(1);
  CHECK_THROWS_WITH_AS(require_room_for_pixels(ImageFormat::kJpeg, jpeg, 4096, 4096, "j.jpg"),
                       "cannot read image j.jpg: 108 bytes cannot hold its 4096x4096 pixels (truncated?)",
                       DataError);
  CHECK_NOTHROW(require_room_for_pixels(ImageFormat::kJpeg, std::string(32768, '\0'), 4096, 4096, "j.jpg"));
}

TEST_CASE("image files: a PNG's empty image-data chunks are dropped before decoding, nothing else") {
  const std::string signature("\x89PNG\r\n\x1a\n", 8);
  const std::string ihdr = std::string("\x00\x00\x00\x01IHDR", 8) + "x" + "CRC!";
  const std::string empty_idat = std::string("\x00\x00\x00\x00IDAT", 8) + "CRC!";
  const std::string idat = std::string("\x00\x00\x00\x02IDAT", 8) + "zz" + "CRC!";
  CHECK(without_empty_png_data(signature + ihdr + empty_idat + idat + empty_idat) ==
        signature + ihdr + idat);
  // A damaged chunk and what follows it stay as they are, for the decoder to report.
  const std::string damaged = std::string("\x7f\x00\x00\x00IDAT", 8) + "short";
  CHECK(without_empty_png_data(signature + empty_idat + damaged) == signature + damaged);
}
