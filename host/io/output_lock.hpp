#pragma once
// One writer per output: two runs of cae writing the same --out would
// overwrite each other's files in turn, and neither would notice. An
// OutputLock holds an advisory lock (flock) on "<output>.lock" for as long as
// it lives; a second run finds it held and stops before doing any work, naming
// the process that holds it. The kernel drops the lock when the process dies,
// however it dies, so a lock file left by SIGKILL never blocks a later run:
// the next run takes it over.
//
// The lock file is cae's alone: it is created with O_EXCL | O_NOFOLLOW and
// holds the line "cae output lock, pid N". A file of that name without the
// line (the user's own), a symbolic link or anything but a regular file is
// refused with a message and left exactly as it is.
//
// The folder an output lies in is locked too (flock on the folder itself, no
// file): shared by every cae writing one file in it, exclusive for a cae
// writing the folder as a whole (an output set). So `cae train --out
// RUN/model.safetensors` and `cae pipeline --out RUN` never run together,
// whichever starts first, while two trainings writing two files of one
// folder still may.

#include <string>

namespace cae {

class OutputLock {
 public:
  // What `output` is: one file of a folder, or a whole folder.
  enum class Scope { kFile, kFolder };

  // Locks `lock_path` for `output` (named in the message), and the folder
  // `lock_path` lies in as `scope` says. Throws IoError when another process
  // holds either, when a file there is not a cae lock, or when it cannot be
  // created.
  OutputLock(std::string lock_path, const std::string& output, Scope scope = Scope::kFile);
  ~OutputLock();  // removes the lock file (ours) and releases the lock
  OutputLock(OutputLock&& other) noexcept;
  OutputLock& operator=(OutputLock&&) = delete;
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  void take_lock_file(const std::string& output);
  void release() noexcept;

  std::string lock_path_;
  int fd_ = -1;
  int folder_fd_ = -1;  // the folder's flock
  int cleanup_slot_ = -1;
};

// The lock for a file output ("<path>.lock") and for a folder ("<dir>/.cae.lock").
OutputLock lock_output_file(const std::string& path);
OutputLock lock_output_directory(const std::string& dir);

// For readers: the pid of another live cae writing the folder `dir` as a
// whole (holding its lock), or 0 when none is.
long folder_writer(const std::string& dir);

}  // namespace cae
