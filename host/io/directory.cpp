#include "io/directory.hpp"

#include <filesystem>
#include <system_error>

#include "io/io_error.hpp"

namespace cae {

namespace fs = std::filesystem;

void ensure_directory(const std::string& path) {
  if (path.empty()) throw IoError("cannot create directory: empty path");
  std::error_code error;
  if (fs::is_directory(path, error)) return;
  if (fs::exists(path, error)) {
    throw IoError("cannot create directory " + path + ": it exists and is not a directory");
  }
  fs::create_directories(path, error);
  // create_directories reports success without creating anything when a racing
  // process made it first; only the final state matters.
  if (fs::is_directory(path)) return;
  throw IoError("cannot create directory " + path + ": " +
                (error ? error.message() : std::string("unknown reason")));
}

std::string parent_directory(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

}  // namespace cae
