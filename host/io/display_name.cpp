#include "io/display_name.hpp"

#include <cstdint>

namespace cae {

size_t utf8_sequence_length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  uint32_t code = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    code = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    code = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  static const uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kSmallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

std::string display_name_problem(std::string_view name) {
  if (name.size() > kMaxDisplayNameBytes) {
    return "is longer than " + std::to_string(kMaxDisplayNameBytes) + " bytes";
  }
  for (size_t i = 0; i < name.size();) {
    const size_t length = utf8_sequence_length(name, i);
    if (length == 0) return "is not UTF-8";
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (length == 1 && (c < 0x20 || c == 0x7F)) return "holds a control character";
    // C1 controls (U+0080..U+009F) are two bytes: C2 80..C2 9F.
    if (length == 2 && c == 0xC2 && static_cast<unsigned char>(name[i + 1]) < 0xA0) {
      return "holds a control character";
    }
    i += length;
  }
  return "";
}

}  // namespace cae
