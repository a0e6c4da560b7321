#pragma once
// Code shared by the binary formats published as a folder (CIFAR-100,
// STL-10): finding the folder and reading its class-names file.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace cae {

// `path` itself, or path/subdirectory (the name the official archive unpacks
// to), whichever `holds` the format's files. DataError naming both otherwise;
// `format` ("STL-10") and `files` ("test_X.bin") word the message.
std::filesystem::path dataset_folder(const std::string& path, const char* subdirectory,
                                     const std::function<bool(const std::filesystem::path&)>& holds,
                                     const std::string& format, const std::string& files);

// The first `expected` non-empty lines of a class-names file (trailing spaces
// and CRs dropped). DataError when it is missing or names fewer, or when a
// name is not fit to show (io/display_name.hpp), naming the line.
std::vector<std::string> read_names_file(const std::filesystem::path& path, size_t expected,
                                         const std::string& format);

}  // namespace cae
