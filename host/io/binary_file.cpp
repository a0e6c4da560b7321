#include "io/binary_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <limits>

#include "io/io_error.hpp"
#include "io/memory_budget.hpp"
#include "io/output_set.hpp"
#include "io/regular_file.hpp"

namespace cae {
namespace {

IoError too_large(const std::string& path, const std::string& size, uint64_t max_bytes,
                  const char* what) {
  return IoError(path + " is " + size + "; " + what + " is at most " + std::to_string(max_bytes) +
                 " bytes");
}

}  // namespace

std::string read_binary_file(const std::string& path, uint64_t max_bytes, const char* what) {
  // A folder, a FIFO or /dev/zero is never one of our files (the FIFO would
  // block the open, /dev/zero be read until memory runs out).
  const UniqueFile file = open_regular_file(path);
  // The size on the open file, checked before a byte is kept; the reading
  // below stops past the bound too, in case the file grows meanwhile.
  struct stat info {};
  if (::fstat(::fileno(file.get()), &info) == 0) {
    if (uint64_t(info.st_size) > max_bytes) {
      throw too_large(path, std::to_string(info.st_size) + " bytes", max_bytes, what);
    }
    // Read whole: a file larger than the machine is refused, named, before
    // any of it is held (io/memory_budget.hpp).
    require_host_memory(uint64_t(info.st_size), "reading " + path);
  }
  std::string bytes;
  char chunk[1 << 16];
  for (;;) {
    const size_t got = std::fread(chunk, 1, sizeof chunk, file.get());
    bytes.append(chunk, got);
    if (bytes.size() > max_bytes) throw too_large(path, "larger", max_bytes, what);
    if (got < sizeof chunk) break;
  }
  if (std::ferror(file.get())) throw IoError(describe_errno("cannot read " + path, errno));
  check_set_member(path, bytes);  // not a file of another run than its neighbours
  return bytes;
}

std::string read_binary_file(const std::string& path) {
  return read_binary_file(path, std::numeric_limits<uint64_t>::max(), "");
}

}  // namespace cae
