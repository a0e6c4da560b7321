#include "data/image_format.hpp"

#include <algorithm>
#include <cstdint>

#include "data/data_error.hpp"

namespace cae {
namespace {

bool starts_with(const std::string& bytes, const std::string& magic) {
  return bytes.compare(0, magic.size(), magic) == 0;
}

uint8_t byte_at(const std::string& bytes, size_t at) { return uint8_t(bytes[at]); }

uint8_t byte_or_zero(const std::string& bytes, size_t at) {
  return at < bytes.size() ? uint8_t(bytes[at]) : 0;  // stb_image reads 0 past the end
}

// Checks one Huffman table segment (DHT) the way stb_image consumes it:
// tables one after another while the declared length lasts. A table of more
// than 256 codes is refused; any other inconsistency stb_image reports
// itself. Returns false where stb_image stops reading the file.
bool check_huffman_segment(const std::string& bytes, size_t at, const std::string& path,
                           unsigned& defined) {
  long left = long(byte_or_zero(bytes, at + 2)) << 8 | byte_or_zero(bytes, at + 3);
  left -= 2;
  size_t table = at + 4;
  while (left > 0) {
    const uint8_t kind = byte_or_zero(bytes, table);
    if (kind >> 4 > 1 || (kind & 15) > 3) return false;  // stb_image: "bad DHT header"
    size_t codes = 0;
    for (size_t i = 1; i <= 16; ++i) codes += byte_or_zero(bytes, table + i);
    if (codes > 256) {
      throw DataError("cannot read image " + path + ": a Huffman table declares " +
                      std::to_string(codes) + " codes, more than 256 (a damaged JPEG)");
    }
    defined |= 1u << ((kind >> 4) * 4 + (kind & 15));
    table += 17 + codes;
    left -= long(17 + codes);
  }
  return left == 0;
}

// Refuses a scan (SOS segment at `at`) that decodes with a Huffman table no
// DHT segment has defined yet (`defined`: bit class * 4 + id): stb_image 2.27
// decodes with whatever its table memory holds and indexes outside its arrays.
// Baseline scans use both tables of each component; a progressive scan its
// DC tables when it starts at coefficient 0, its AC tables otherwise.
void check_scan_tables(const std::string& bytes, size_t at, bool progressive, unsigned defined,
                       const std::string& path) {
  const size_t components = byte_or_zero(bytes, at + 4);
  const size_t spectral_start = byte_or_zero(bytes, at + 5 + 2 * components);
  for (size_t c = 0; c < components; ++c) {
    const uint8_t tables = byte_or_zero(bytes, at + 6 + 2 * c);
    const unsigned dc = tables >> 4, ac = tables & 15;
    if (dc > 3 || ac > 3) return;  // stb_image refuses these itself ("bad DC huff")
    const bool dc_missing = (!progressive || spectral_start == 0) && !(defined >> dc & 1u);
    const bool ac_missing = (!progressive || spectral_start != 0) && !(defined >> (4 + ac) & 1u);
    if (dc_missing || ac_missing) {
      throw DataError("cannot read image " + path + ": a scan uses Huffman table " +
                      std::string(dc_missing ? "DC " : "AC ") +
                      std::to_string(dc_missing ? dc : ac) +
                      ", which the file does not define before it (a damaged JPEG)");
    }
  }
}

// Walks a JPEG's markers as stb_image finds them -- bytes between markers
// skipped, each scan's entropy-coded data passed over up to the next marker
// (0xFF then neither 0x00 nor a restart marker) -- and checks every Huffman
// table segment, also those between the scans of a progressive JPEG, and
// that every scan's tables are defined.
void check_jpeg_tables(const std::string& bytes, const std::string& path) {
  size_t at = 2;  // after the start-of-image marker
  bool in_scan = false;
  bool progressive = false;
  unsigned defined = 0;
  while (at + 1 < bytes.size()) {
    const uint8_t marker = byte_at(bytes, at + 1);
    if (byte_at(bytes, at) != 0xFF || marker == 0xFF ||
        (in_scan && (marker == 0x00 || (marker >= 0xD0 && marker <= 0xD7)))) {
      ++at;  // not a marker here: stb_image reads on
      continue;
    }
    if (marker == 0xD9) return;  // end of image
    in_scan = false;
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x00) {
      at += 2;  // no length field
      continue;
    }
    if (marker == 0xC4 && !check_huffman_segment(bytes, at, path, defined)) return;
    if (marker == 0xC2) progressive = true;
    if (marker == 0xDA) check_scan_tables(bytes, at, progressive, defined, path);
    const size_t length = size_t(byte_or_zero(bytes, at + 2)) << 8 | byte_or_zero(bytes, at + 3);
    if (length < 2) return;
    in_scan = marker == 0xDA;  // entropy-coded data follows the scan header
    at += 2 + length;
  }
}

// Walks the PNG's chunks up to IEND: one that declares more bytes than the
// file still holds, or that the file ends inside, is refused. stb_image grows
// its image-data buffer to a chunk's declared length (up to 1 GiB, doubled:
// 2 GiB) before it reads the chunk, so a 100-byte file could make it
// allocate that much.
void check_png_chunks(const std::string& bytes, const std::string& path) {
  size_t at = 8;  // past the signature
  while (at < bytes.size()) {
    // A chunk cut short (even an empty one) is refused too: stb_image would
    // copy an empty image-data chunk's nothing from a null pointer.
    if (at + 12 > bytes.size()) {
      throw DataError("cannot read image " + path + ": the PNG ends inside the chunk at byte " +
                      std::to_string(at) + " (truncated?)");
    }
    const size_t length = size_t(byte_at(bytes, at)) << 24 | size_t(byte_at(bytes, at + 1)) << 16 |
                          size_t(byte_at(bytes, at + 2)) << 8 | byte_at(bytes, at + 3);
    if (length > bytes.size() - at - 12) {
      throw DataError("cannot read image " + path + ": the PNG chunk at byte " + std::to_string(at) +
                      " declares " + std::to_string(length) + " bytes, more than the file holds " +
                      "(truncated?)");
    }
    if (bytes.compare(at + 4, 4, "IEND") == 0) return;
    at += length + 12;
  }
}

uint32_t little_endian(const std::string& bytes, size_t at, int size) {
  uint32_t value = 0;
  for (int i = size - 1; i >= 0; --i) value = value << 8 | byte_or_zero(bytes, at + size_t(i));
  return value;
}

}  // namespace

std::string without_empty_png_data(const std::string& bytes) {
  std::string kept = bytes.substr(0, 8);  // the signature
  size_t at = 8;
  while (at + 12 <= bytes.size()) {
    const size_t length = size_t(byte_at(bytes, at)) << 24 | size_t(byte_at(bytes, at + 1)) << 16 |
                          size_t(byte_at(bytes, at + 2)) << 8 | byte_at(bytes, at + 3);
    if (length > bytes.size() - at - 12) break;  // a damaged chunk: the decoder reports it
    if (!(length == 0 && bytes.compare(at + 4, 4, "IDAT") == 0)) kept.append(bytes, at, length + 12);
    at += length + 12;
  }
  kept.append(bytes, std::min(at, bytes.size()), std::string::npos);
  return kept;
}

void require_room_for_pixels(ImageFormat format, const std::string& bytes, int width, int height,
                             const std::string& path) {
  const uint64_t pixels = uint64_t(width) * uint64_t(height);
  uint64_t needed = 0;
  if (format == ImageFormat::kBmp) {
    // Bits per pixel: at 28 after a 40-byte (or larger) header, at 24 after
    // the old 12-byte one; rows are padded to 4 bytes.
    const uint32_t header = little_endian(bytes, 14, 4);
    const uint64_t bits = little_endian(bytes, header == 12 ? 24 : 28, 2);
    const uint64_t row = (uint64_t(width) * bits + 31) / 32 * 4;
    needed = uint64_t(little_endian(bytes, 10, 4)) + row * uint64_t(height);
  } else if (format == ImageFormat::kJpeg) {
    needed = pixels / 64 / 8;
  }
  if (bytes.size() < needed) {
    throw DataError("cannot read image " + path + ": " + std::to_string(bytes.size()) +
                    " bytes cannot hold its " + std::to_string(width) + "x" + std::to_string(height) +
                    " pixels (truncated?)");
  }
}

ImageFormat checked_image_format(const std::string& bytes, const std::string& path) {
  if (starts_with(bytes, "\x89PNG\r\n\x1a\n")) {
    check_png_chunks(bytes, path);
    return ImageFormat::kPng;
  }
  if (starts_with(bytes, "BM")) return ImageFormat::kBmp;
  if (starts_with(bytes, "\xFF\xD8")) {
    check_jpeg_tables(bytes, path);
    return ImageFormat::kJpeg;
  }
  throw DataError("cannot read image " + path +
                  ": not a PNG, JPEG or BMP file (its first bytes say otherwise)");
}

}  // namespace cae
