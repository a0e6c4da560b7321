#include "io/binary_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <memory>

#include "io/io_error.hpp"

namespace cae {

std::string read_binary_file(const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw IoError(describe_errno("cannot read " + path, errno));
  // A folder, a FIFO or /dev/zero is never one of our files (and the last
  // would be read until memory runs out).
  struct stat status {};
  if (::fstat(::fileno(file.get()), &status) == 0 && !S_ISREG(status.st_mode)) {
    throw IoError("cannot read " + path + ": " +
                  (S_ISDIR(status.st_mode) ? "it is a folder" : "it is not a regular file"));
  }
  std::string bytes;
  char chunk[1 << 16];
  for (;;) {
    const size_t got = std::fread(chunk, 1, sizeof chunk, file.get());
    bytes.append(chunk, got);
    if (got < sizeof chunk) break;
  }
  if (std::ferror(file.get())) throw IoError(describe_errno("cannot read " + path, errno));
  return bytes;
}

}  // namespace cae
