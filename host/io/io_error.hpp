#pragma once
// The one exception type of io/: every message is a single line that names the
// file and what went wrong, so the CLI can print it as is.

#include <stdexcept>
#include <string>

namespace cae {

class IoError : public std::runtime_error {
 public:
  explicit IoError(const std::string& message);
};

// "<what>: <strerror(errno_value)>", for failures reported through errno.
std::string describe_errno(const std::string& what, int errno_value);

// nlohmann::json's what() without its "[json.exception.parse_error.101] "
// prefix, which means nothing to a user.
std::string json_error_text(const std::string& what);

}  // namespace cae
