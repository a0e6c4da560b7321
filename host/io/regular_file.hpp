#pragma once
// Opening an input that must be a regular file. open() itself blocks on a FIFO
// until a writer appears (forever, if none does), and a device such as
// /dev/zero is read until memory runs out; so the file is opened without
// blocking, its type checked on the open descriptor (no window between check
// and use), and only a regular file is handed on, in blocking mode.

#include <cstdio>
#include <memory>
#include <string>

namespace cae {

struct FileCloser {
  void operator()(FILE* file) const noexcept { std::fclose(file); }
};
using UniqueFile = std::unique_ptr<FILE, FileCloser>;

// The opened file (mode "rb"), or null with `error` set to one line:
// "cannot read PATH: it is a folder" / "...: it is a FIFO, not a regular
// file" / "...: <strerror>".
UniqueFile open_regular_file(const std::string& path, std::string& error);

// The same, throwing IoError with that line.
UniqueFile open_regular_file(const std::string& path);

// The same checks, for readers that want a descriptor (pread): an open,
// blocking descriptor the caller closes, or -1 with `error` set.
int open_regular_descriptor(const std::string& path, std::string& error);

// What a non-regular file is, in words ("a FIFO", "a device", "a socket",
// "a folder"); empty for a regular file. Used for messages on `st_mode`.
std::string special_file_kind(unsigned mode);

}  // namespace cae
