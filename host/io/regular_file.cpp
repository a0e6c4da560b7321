#include "io/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "io/io_error.hpp"

namespace cae {

std::string special_file_kind(unsigned mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

int open_regular_descriptor(const std::string& path, std::string& error) {
  // O_NONBLOCK: open() of a FIFO returns at once instead of waiting for a
  // writer; O_NOCTTY: a terminal named as input never becomes ours.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    const int open_error = errno;
    struct stat status {};
    // A socket cannot be opened at all (ENXIO): say what it is instead.
    if (::stat(path.c_str(), &status) == 0 && S_ISSOCK(status.st_mode)) {
      error = "cannot read " + path + ": it is a socket, not a regular file";
    } else {
      error = describe_errno("cannot read " + path, open_error);
    }
    return -1;
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    error = describe_errno("cannot read " + path, errno);
    ::close(fd);
    return -1;
  }
  const std::string kind = special_file_kind(status.st_mode);
  if (!kind.empty()) {
    error = "cannot read " + path + ": it is " +
            (S_ISDIR(status.st_mode) ? kind : kind + ", not a regular file");
    ::close(fd);
    return -1;
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    error = describe_errno("cannot read " + path, errno);
    ::close(fd);
    return -1;
  }
  return fd;
}

UniqueFile open_regular_file(const std::string& path, std::string& error) {
  const int fd = open_regular_descriptor(path, error);
  if (fd < 0) return nullptr;
  FILE* file = ::fdopen(fd, "rb");
  if (file == nullptr) {
    error = describe_errno("cannot read " + path, errno);
    ::close(fd);
    return nullptr;
  }
  return UniqueFile(file);
}

UniqueFile open_regular_file(const std::string& path) {
  std::string error;
  UniqueFile file = open_regular_file(path, error);
  if (!file) throw IoError(error);
  return file;
}

}  // namespace cae
