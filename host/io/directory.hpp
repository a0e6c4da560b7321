#pragma once

#include <string>

namespace cae {

// Creates `path` and its missing parents; succeeds if it already is a directory.
// Throws IoError ("cannot create directory X: <reason>") otherwise.
void ensure_directory(const std::string& path);

// The directory part of `path` ("." for a bare file name).
std::string parent_directory(const std::string& path);

}  // namespace cae
