#pragma once
// Writes a file so that readers only ever see the old contents or the complete
// new ones: data goes to "<final>.tmp.<pid>" in the same directory (so the
// rename stays on one filesystem, where it is atomic), and commit() makes it
// durable before renaming it over the final name. A crash or an exception
// before commit() leaves at most a stray temp file, never a partial final file;
// a fatal signal removes it (io/exit_cleanup.hpp), and the next write of the
// same name removes those of processes that no longer exist (SIGKILL).

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

#include "io/directory.hpp"
#include "io/io_error.hpp"

namespace cae {

class AtomicFile {
 public:
  // Creates the temp file; the directory must exist. Throws IoError.
  explicit AtomicFile(std::string final_path);
  // Without commit(): closes and removes the temp file.
  ~AtomicFile();

  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, size_t bytes);
  void write(std::string_view text) { write(text.data(), text.size()); }

  // fflush + fsync + rename + fsync of the directory. Throws IoError (and
  // removes the temp file) if any step fails. Call at most once.
  void commit();

  const std::string& final_path() const { return final_path_; }
  const std::string& temp_path() const { return temp_path_; }

 private:
  [[noreturn]] void fail(const std::string& step, int errno_value);
  void discard() noexcept;

  std::string final_path_;
  std::string temp_path_;
  FILE* file_ = nullptr;
  bool temp_exists_ = false;  // whether temp_path_ is ours to remove
  int cleanup_slot_ = -1;     // removes temp_path_ if a signal ends the process
};

// Convenience: the whole contents in one atomic write.
void write_file_atomically(const std::string& path, std::string_view contents);

}  // namespace cae
