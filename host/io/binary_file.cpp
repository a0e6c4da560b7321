#include "io/binary_file.hpp"

#include <cerrno>
#include <cstdio>
#include <memory>

#include "io/io_error.hpp"

namespace cae {

std::string read_binary_file(const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw IoError(describe_errno("cannot read " + path, errno));
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
