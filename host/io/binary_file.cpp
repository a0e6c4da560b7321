#include "io/binary_file.hpp"

#include <cerrno>
#include <cstdio>

#include "io/io_error.hpp"
#include "io/output_set.hpp"
#include "io/regular_file.hpp"

namespace cae {

std::string read_binary_file(const std::string& path) {
  // A folder, a FIFO or /dev/zero is never one of our files (the FIFO would
  // block the open, /dev/zero be read until memory runs out).
  const UniqueFile file = open_regular_file(path);
  std::string bytes;
  char chunk[1 << 16];
  for (;;) {
    const size_t got = std::fread(chunk, 1, sizeof chunk, file.get());
    bytes.append(chunk, got);
    if (got < sizeof chunk) break;
  }
  if (std::ferror(file.get())) throw IoError(describe_errno("cannot read " + path, errno));
  check_set_member(path, bytes);  // not a file of another run than its neighbours
  return bytes;
}

}  // namespace cae
