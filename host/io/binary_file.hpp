#pragma once
// Whole-file reads for the small binary formats of io/ (checkpoints, .npy):
// they are parsed from memory, which keeps every bounds check explicit.

#include <string>

namespace cae {

// The bytes of `path`, which must be a regular file (a FIFO or device is
// refused before it can block or flood) and, when its folder records an
// output set, the file that set lists (io/output_set.hpp). Throws IoError
// ("cannot read X: <reason>").
std::string read_binary_file(const std::string& path);

}  // namespace cae
