// Reading a whole file of a finished run back.
#pragma once

#include <filesystem>
#include <string>

namespace cae {

// The file's bytes. Throws std::runtime_error (IoError) naming `path` and the reason
// when it cannot be opened or read.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace cae
