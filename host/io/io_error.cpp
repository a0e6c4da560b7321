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

}  // namespace cae
