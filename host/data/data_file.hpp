#pragma once
// Opening a file of a data set: a regular file (a FIFO, device or socket is
// refused before an open that could block, io/regular_file.hpp) that, when
// its folder records an output set (a `cae data synth` set,
// io/output_set.hpp), is the file of that set and not one of another run.
// Every error is a DataError naming the file.

#include <filesystem>
#include <initializer_list>
#include <string>

#include "io/regular_file.hpp"

namespace cae {

UniqueFile open_data_file(const std::string& path);

// Whether `dir` holds anything under one of `names` (a file, a folder, a FIFO,
// a dangling link). Formats are recognised by the names of their files, not
// by their being regular files: a folder or FIFO named test_batch.bin makes
// the set a CIFAR-10 one whose loader names that file, rather than "not a
// data set cae recognises".
bool holds_any_name(const std::filesystem::path& dir, std::initializer_list<const char*> names);

// What is at a name that is not a regular file, for a message: "a folder",
// "a FIFO", "a socket", "a device or other special file".
const char* special_file_kind(const std::filesystem::file_status& status);

// A file a data set needs (`what`: "CIFAR-100 test file"): DataError naming
// the path and what is there instead (nothing, a folder, a FIFO or device).
void require_data_file(const std::filesystem::path& path, const std::string& what);

// The same, as a blocking descriptor for pread (the caller closes it).
int open_data_descriptor(const std::string& path);

}  // namespace cae
