#pragma once
// Whole-file reads for the small binary formats of io/ (checkpoints, .npy):
// they are parsed from memory, which keeps every bounds check explicit.

#include <cstdint>
#include <string>

namespace cae {

// The bytes of `path`, which must be a regular file (a FIFO or device is
// refused before it can block or flood) and, when its folder records an
// output set, the file that set lists (io/output_set.hpp). Throws IoError
// ("cannot read X: <reason>").
std::string read_binary_file(const std::string& path);

// The same for the small formats (JSON, CSV, text): a file over `max_bytes`
// is refused before it is read, "PATH is N bytes; <what> is at most M
// bytes", so a huge file never fills memory.
std::string read_binary_file(const std::string& path, uint64_t max_bytes, const char* what);

}  // namespace cae
