#include "data/data_file.hpp"

#include <unistd.h>

#include "data/data_error.hpp"
#include "io/io_error.hpp"
#include "io/output_set.hpp"

namespace cae {

namespace {

void require_member_of_its_set(const std::string& path) {
  try {
    check_set_member(path);
  } catch (const IoError& error) {
    throw DataError(error.what());
  }
}

}  // namespace

bool holds_any_name(const std::filesystem::path& dir, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    std::error_code error;
    if (std::filesystem::symlink_status(dir / name, error).type() !=
        std::filesystem::file_type::not_found && !error) {
      return true;
    }
  }
  return false;
}

const char* special_file_kind(const std::filesystem::file_status& status) {
  namespace fs = std::filesystem;
  return fs::is_directory(status) ? "a folder"
         : fs::is_fifo(status)    ? "a FIFO"
         : fs::is_socket(status)  ? "a socket"
                                  : "a device or other special file";
}

void require_data_file(const std::filesystem::path& path, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  // A name that cannot be followed (a loop of links, no permission) is that.
  if (error && error != std::errc::no_such_file_or_directory) {
    throw DataError(describe_path_error(path.string(), error));
  }
  if (fs::is_regular_file(status)) return;
  if (!fs::exists(status)) throw DataError("missing " + what + " " + path.string());
  throw DataError(path.string() + " is " + special_file_kind(status) + ", not a regular file (the " +
                  what + ")");
}

UniqueFile open_data_file(const std::string& path) {
  std::string error;
  UniqueFile file = open_regular_file(path, error);
  if (!file) throw DataError(error);
  require_member_of_its_set(path);
  return file;
}

int open_data_descriptor(const std::string& path) {
  std::string error;
  const int fd = open_regular_descriptor(path, error);
  if (fd < 0) throw DataError(error);
  try {
    require_member_of_its_set(path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  return fd;
}

}  // namespace cae
