#pragma once
// The one exception type of io/: every message is a single line that names the
// file and what went wrong, so the CLI can print it as is.

#include <stdexcept>
#include <filesystem>
#include <string>
#include <system_error>

namespace cae {

class IoError : public std::runtime_error {
 public:
  explicit IoError(const std::string& message);
};

// "<what>: <strerror(errno_value)>", for failures reported through errno.
std::string describe_errno(const std::string& what, int errno_value);

// The one wording of a failed path operation (std::filesystem's
// "filesystem error: ..." and error codes): "cannot <operation> PATH: <what
// the system said>", with what ELOOP means: "(a loop of symbolic links)".
// `operation` defaults to "use".
std::string describe_path_error(const std::string& path, const std::error_code& error,
                                const std::string& operation = "use");

// The same for an exception of std::filesystem, keeping its operation
// ("cannot create directories ...") and dropping the library's wording.
std::string describe_filesystem_error(const std::filesystem::filesystem_error& error);

// nlohmann::json's what() without its "[json.exception.parse_error.101] "
// prefix, which means nothing to a user, and with the text it quotes ("last
// read: '...'", which can be a whole huge string) cut to an excerpt.
std::string json_error_text(const std::string& what);

// Text read from a file, fit to quote in a one-line message: control
// characters (a newline above all) and bytes that are not UTF-8 written as \xNN.
std::string printable_text(const std::string& text);

// The same, cut to its first `limit` bytes and its length ("abc... (100000
// bytes)"): a value a file holds may be huge, and a message quotes only
// enough of it to be found.
constexpr size_t kExcerptBytes = 60;
std::string text_excerpt(const std::string& text, size_t limit = kExcerptBytes);

}  // namespace cae
