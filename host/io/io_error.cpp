#include "io/io_error.hpp"

#include <cstring>

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

std::string describe_errno(const std::string& what, int errno_value) {
  return what + ": " + std::strerror(errno_value);
}

std::string json_error_text(const std::string& what) {
  if (what.rfind("[json.exception.", 0) != 0) return what;
  const size_t end = what.find("] ");
  return end == std::string::npos ? what : what.substr(end + 2);
}

}  // namespace cae
