#include "io/npy_header.hpp"

#include <cctype>

#include "io/io_error.hpp"

namespace cae {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicBytes = 6;
constexpr size_t kAlignment = 64;

std::string shape_literal(const std::vector<uint64_t>& shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  // A one-element Python tuple needs its trailing comma.
  return text + (shape.size() == 1 ? ",)" : ")");
}

// A minimal reader for the dict literal numpy writes: quoted keys, and values
// that are quoted strings, True/False or tuples of integers.
class DictParser {
 public:
  DictParser(const std::string& text, const std::string& path) : text_(text), path_(path) {}

  NpyHeader parse() {
    NpyHeader header;
    bool saw_descr = false, saw_order = false, saw_shape = false;
    expect('{');
    while (!accept('}')) {
      const std::string key = quoted();
      expect(':');
      if (key == "descr") {
        header.descr = quoted();
        saw_descr = true;
      } else if (key == "fortran_order") {
        header.fortran_order = boolean();
        saw_order = true;
      } else if (key == "shape") {
        header.shape = tuple();
        saw_shape = true;
      } else {
        fail("unexpected key '" + key + "'");
      }
      if (!accept(',')) {
        expect('}');
        break;
      }
    }
    if (!saw_descr || !saw_order || !saw_shape) {
      fail("it lacks one of 'descr', 'fortran_order', 'shape'");
    }
    return header;
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw IoError(path_ + ": bad .npy header: " + problem);
  }
  void skip_spaces() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip_spaces();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "' at offset " + std::to_string(pos_));
  }
  bool accept_word(const std::string& word) {
    skip_spaces();
    if (text_.compare(pos_, word.size(), word) != 0) return false;
    pos_ += word.size();
    return true;
  }
  std::string quoted() {
    skip_spaces();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) {
      fail("expected a quoted string at offset " + std::to_string(pos_));
    }
    const char quote = text_[pos_++];
    const size_t end = text_.find(quote, pos_);
    if (end == std::string::npos) fail("unterminated string");
    std::string value = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return value;
  }
  bool boolean() {
    if (accept_word("True")) return true;
    if (accept_word("False")) return false;
    fail("fortran_order is neither True nor False");
  }
  std::vector<uint64_t> tuple() {
    std::vector<uint64_t> values;
    expect('(');
    while (!accept(')')) {
      skip_spaces();
      if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        fail("the shape is not a tuple of integers");
      }
      uint64_t value = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        if (value > (UINT64_MAX - 9) / 10) fail("a shape dimension is too large");
        value = value * 10 + static_cast<uint64_t>(text_[pos_++] - '0');
      }
      accept('L');  // Python 2 wrote long integers with a suffix
      values.push_back(value);
      if (!accept(',')) {
        expect(')');
        break;
      }
    }
    return values;
  }

  const std::string& text_;
  const std::string& path_;
  size_t pos_ = 0;
};

}  // namespace

std::string encode_npy_header(const std::string& descr, const std::vector<uint64_t>& shape) {
  std::string dict =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape_literal(shape) + ", }";
  const size_t preamble = kMagicBytes + 2 + 2;         // magic, version, uint16 length
  const size_t unpadded = preamble + dict.size() + 1;  // +1 for the closing newline
  dict.append((kAlignment - unpadded % kAlignment) % kAlignment, ' ');
  dict += '\n';
  std::string bytes(kMagic, kMagicBytes);
  bytes += '\x01';
  bytes += '\x00';
  bytes += static_cast<char>(dict.size() & 0xff);
  bytes += static_cast<char>((dict.size() >> 8) & 0xff);
  return bytes + dict;
}

NpyHeader parse_npy_header(const std::string& bytes, const std::string& path) {
  if (bytes.size() < kMagicBytes + 2 || bytes.compare(0, kMagicBytes, kMagic, kMagicBytes) != 0) {
    throw IoError(path + ": not a .npy file (no \\x93NUMPY magic)");
  }
  const int major = static_cast<unsigned char>(bytes[kMagicBytes]);
  // Version 1.0 stores the dict length in 2 bytes; 2.0 and 3.0 (UTF-8 dict) in 4.
  const size_t length_bytes = major == 1 ? 2 : (major == 2 || major == 3) ? 4 : 0;
  if (length_bytes == 0) {
    throw IoError(path + ": unsupported .npy version " + std::to_string(major) + "." +
                  std::to_string(static_cast<unsigned char>(bytes[kMagicBytes + 1])));
  }
  const size_t length_at = kMagicBytes + 2;
  if (bytes.size() < length_at + length_bytes) throw IoError(path + ": truncated .npy header");
  size_t dict_bytes = 0;
  for (size_t i = 0; i < length_bytes; ++i) {
    dict_bytes |= static_cast<size_t>(static_cast<unsigned char>(bytes[length_at + i])) << (8 * i);
  }
  const size_t dict_at = length_at + length_bytes;
  if (dict_bytes > bytes.size() - dict_at) {
    throw IoError(path + ": truncated .npy header (" + std::to_string(dict_bytes) +
                  "-byte dict, file is " + std::to_string(bytes.size()) + " bytes)");
  }
  const std::string dict = bytes.substr(dict_at, dict_bytes);
  NpyHeader header = DictParser(dict, path).parse();
  header.data_offset = dict_at + dict_bytes;
  return header;
}

}  // namespace cae
