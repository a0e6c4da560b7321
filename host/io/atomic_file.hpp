#pragma once
// Writes a file so that readers only ever see the old contents or the complete
// new ones: data goes to "<final>.tmp.<pid>" in the same directory (so the
// rename stays on one filesystem, where it is atomic), and commit() makes it
// durable before renaming it over the final name. A crash or an exception
// before commit() leaves at most a stray temp file, never a partial final file;
// a fatal signal removes it (io/exit_cleanup.hpp), and the next write of the
// same name removes those of processes that no longer exist (SIGKILL).
//
// A file written directly into the folder of an open OutputSet
// (io/output_set.hpp) stays under its temporary name at commit() until the
// whole set is published.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "io/sha256.hpp"
#include "io/directory.hpp"
#include "io/io_error.hpp"

namespace cae {

class AtomicFile {
 public:
  // kFollowSet: commit() hands the file to an open OutputSet of its folder,
  // if there is one. kImmediate: commit() always renames (the set's own
  // manifest).
  enum class Staging { kFollowSet, kImmediate };

  // Creates the temp file; the directory must exist. Throws IoError.
  explicit AtomicFile(std::string final_path, Staging staging = Staging::kFollowSet);
  // Without commit(): closes and removes the temp file.
  ~AtomicFile();

  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Writes of at least this many bytes are hashed on a second thread and
  // written back to the disk chunk by chunk.
  static constexpr size_t kChunkBytes = size_t{64} << 20;

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
  // Asks the kernel to start writing [offset, offset + bytes) to the disk.
  void start_write_back(uint64_t offset, size_t bytes);

  std::string final_path_;
  std::string temp_path_;
  Staging staging_;
  Sha256 hash_;  // of everything written, for the output set's manifest
  uint64_t written_ = 0;  // bytes written so far: where the next write starts
  FILE* file_ = nullptr;
  bool temp_exists_ = false;  // whether temp_path_ is ours to remove
  int cleanup_slot_ = -1;     // removes temp_path_ if a signal ends the process
};

// Convenience: the whole contents in one atomic write.
void write_file_atomically(const std::string& path, std::string_view contents);

}  // namespace cae
