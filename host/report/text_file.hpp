// Reading a whole file of a finished run back.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace cae {

inline constexpr uint64_t kMaxRunTextFileBytes = uint64_t(256) << 20;

// The file's bytes. Throws std::runtime_error (IoError) naming `path` and the reason
// when it cannot be opened or read, or is larger than kMaxRunTextFileBytes.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace cae
