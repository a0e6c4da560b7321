#include "io/io_error.hpp"

#include <cstring>

#include "io/display_name.hpp"

namespace cae {

namespace {

// A multi-line message would break the "one line per problem" promise (some
// library messages embed newlines), so flatten it here once for everybody.
std::string single_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

}  // namespace

IoError::IoError(const std::string& message) : std::runtime_error(single_line(message)) {}

std::string describe_path_error(const std::string& path, const std::error_code& error,
                                const std::string& operation) {
  const bool loop = error == std::errc::too_many_symbolic_link_levels;
  return "cannot " + operation + " " + path + ": " + error.message() +
         (loop ? " (a loop of symbolic links)" : "");
}

std::string describe_filesystem_error(const std::filesystem::filesystem_error& error) {
  // libstdc++ writes "filesystem error: cannot OPERATION: REASON [PATH1] [PATH2]".
  std::string operation = "use";
  const std::string what = error.what();
  const std::string lead = "filesystem error: cannot ";
  if (what.rfind(lead, 0) == 0) {
    const size_t end = what.find(": ", lead.size());
    if (end != std::string::npos) operation = what.substr(lead.size(), end - lead.size());
  }
  const std::string path = error.path1().empty() ? "a path" : error.path1().string();
  return describe_path_error(path, error.code(), operation);
}

std::string describe_errno(const std::string& what, int errno_value) {
  return what + ": " + std::strerror(errno_value);
}

std::string printable_text(const std::string& text) {
  static const char digits[] = "0123456789abcdef";
  const auto escaped = [](unsigned char byte) {
    return std::string("\\x") + digits[byte >> 4] + digits[byte & 15];
  };
  std::string printable;
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    // UTF-8 is kept; a byte outside it is escaped like a control character,
    // so the message stays text a terminal shows as it is.
    const size_t length = utf8_sequence_length(text, i);
    if (length == 0 || byte < 0x20 || byte == 0x7f) {
      printable += escaped(byte);
      ++i;
    } else {
      printable.append(text, i, length);
      i += length;
    }
  }
  return printable;
}

std::string text_excerpt(const std::string& text, size_t limit) {
  if (text.size() <= limit) return printable_text(text);
  size_t cut = limit;
  // Cut before a UTF-8 sequence, not inside it.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) --cut;
  return printable_text(text.substr(0, cut)) + "... (" + std::to_string(text.size()) + " bytes)";
}

std::string json_error_text(const std::string& what) {
  // Only nlohmann's messages are rewritten: this is applied to every error
  // that reaches the top level, and cae's own already quote excerpts.
  if (what.rfind("[json.exception.", 0) != 0) return what;
  const size_t end = what.find("] ");
  if (end == std::string::npos) return what;
  const std::string text = what.substr(end + 2);
  // What nlohmann quotes ("last read: '...'", "number overflow parsing
  // '...'") is text from the file, of any length.
  const size_t open = text.find('\'');
  const size_t close = text.rfind('\'');
  if (open == std::string::npos || close == open) return printable_text(text);
  return printable_text(text.substr(0, open + 1)) + text_excerpt(text.substr(open + 1, close - open - 1)) +
         printable_text(text.substr(close));
}

}  // namespace cae
