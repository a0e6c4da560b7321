#pragma once
// Code shared by the binary formats published as a folder (CIFAR-100,
// STL-10): finding the folder; and the one reader of class-names files
// (theirs, CIFAR-10's batches.meta.txt, a .npy set's classes.txt).

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

// How many names a class-names file gives: exactly the set's classes
// (formats with a fixed class count), or all its lines, at least the classes
// the labels use (a .npy set's optional classes.txt).
enum class NameCount { kExactly, kAtLeast };

// The first `expected` non-empty lines of a class-names file (trailing spaces
// and CRs dropped; with kAtLeast, every such line). DataError when it is
// missing or names fewer, or when a name is not fit to show
// (io/display_name.hpp), naming the line: the one check of every class-names
// file, made at load.
std::vector<std::string> read_names_file(const std::filesystem::path& path, size_t expected,
                                         const std::string& format,
                                         NameCount count = NameCount::kExactly);

}  // namespace cae
