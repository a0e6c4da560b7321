#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <algorithm>
#include <filesystem>
#include <future>
#include <utility>

#include "io/confined_folder.hpp"
#include "io/exit_cleanup.hpp"
#include "io/output_set.hpp"

namespace cae {

namespace {

std::string temp_name_for(const std::string& final_path) {
  return final_path + ".tmp." + std::to_string(static_cast<long>(::getpid()));
}

// Makes the rename itself durable. Some filesystems refuse fsync on a
// directory (EINVAL); the data is already safe then, so that is not an error.
void sync_directory_of(const std::string& path) {
  const int dir = ::open(parent_directory(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  ::fsync(dir);
  ::close(dir);
}

// The pid of a temporary "<name>.tmp.<pid>" of `final_name`, or 0.
long temp_owner(const std::string& entry, const std::string& final_name) {
  const std::string prefix = final_name + ".tmp.";
  if (entry.size() <= prefix.size() || entry.compare(0, prefix.size(), prefix) != 0) return 0;
  long pid = 0;
  for (size_t i = prefix.size(); i < entry.size(); ++i) {
    if (entry[i] < '0' || entry[i] > '9' || pid > 1000000000L) return 0;
    pid = pid * 10 + (entry[i] - '0');
  }
  return pid;
}

// A process killed with SIGKILL (or by a power cut) cannot remove its
// temporary; the next write of the same name does, when its owner is gone.
void remove_stale_temporaries(const std::string& final_path) {
  namespace fs = std::filesystem;
  const std::string name = fs::path(final_path).filename().string();
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(parent_directory(final_path), error)) {
    const long pid = temp_owner(entry.path().filename().string(), name);
    if (pid <= 0 || pid == static_cast<long>(::getpid())) continue;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      std::error_code ignored;
      fs::remove(entry.path(), ignored);
    }
  }
}

// The strerror text alone does not say what to do about these two.
std::string remedy(int errno_value) {
  if (errno_value == EFBIG) return " (the file-size limit, `ulimit -f`, is too small)";
  if (errno_value == ENOSPC) return " (free some space or write elsewhere)";
  return "";
}

}  // namespace

AtomicFile::AtomicFile(std::string final_path, Staging staging)
    : final_path_(std::move(final_path)), temp_path_(temp_name_for(final_path_)), staging_(staging) {
  if (final_path_.empty()) throw IoError("cannot write a file with an empty path");
  // Before anything is created or removed beside the file: under an output
  // folder, a link must not lead the write elsewhere (io/confined_folder.hpp).
  require_inside_confined_folders(final_path_);
  remove_stale_temporaries(final_path_);
  // O_NOFOLLOW: a link planted at the temporary's name is not written through.
  const int fd =
      ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    throw IoError(
        describe_errno("cannot write " + final_path_ + ": cannot create " + temp_path_, errno));
  }
  temp_exists_ = true;
  cleanup_slot_ = register_exit_cleanup(temp_path_);
  file_ = ::fdopen(fd, "wb");
  if (file_ == nullptr) {
    const int error = errno;
    ::close(fd);
    discard();
    throw IoError(describe_errno("cannot write " + final_path_, error));
  }
}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::write(const void* data, size_t bytes) {
  if (file_ == nullptr) throw IoError("cannot write " + final_path_ + ": file already closed");
  if (bytes == 0) return;
  if (bytes < kChunkBytes) {
    if (std::fwrite(data, 1, bytes, file_) != bytes) fail("write", errno);
    hash_.update(data, bytes);
    written_ += bytes;
    return;
  }
  // A large write goes in chunks: each chunk is hashed on a second thread
  // while it is written, and its write-back to the disk starts at once, so
  // that commit()'s fsync finds little left. In one piece, an SVM model's
  // 1.3 GB of support vectors was hashed, then copied, then synced, one
  // after the other: about 3 s on an H200's host.
  const auto* bytes_at = static_cast<const unsigned char*>(data);
  std::future<void> hashed;  // the chunk being hashed; hash_ takes them in order
  for (size_t done = 0; done < bytes;) {
    const size_t n = std::min(kChunkBytes, bytes - done);
    if (hashed.valid()) hashed.get();
    hashed = std::async(std::launch::async, [this, chunk = bytes_at + done, n] {
      hash_.update(chunk, n);
    });
    if (std::fwrite(bytes_at + done, 1, n, file_) != n || std::fflush(file_) != 0) {
      const int error = errno;
      hashed.get();  // before fail(): the thread reads the caller's data
      fail("write", error);
    }
    start_write_back(written_, n);
    written_ += n;
    done += n;
  }
  hashed.get();
}

void AtomicFile::start_write_back(uint64_t offset, size_t bytes) {
#ifdef __linux__
  // Only a start: commit()'s fsync is what makes the data durable, so a
  // filesystem that refuses this loses nothing but the head start.
  (void)::sync_file_range(::fileno(file_), static_cast<off_t>(offset), static_cast<off_t>(bytes),
                          SYNC_FILE_RANGE_WRITE);
#else
  (void)offset;
  (void)bytes;
#endif
}

void AtomicFile::commit() {
  if (file_ == nullptr) throw IoError("cannot write " + final_path_ + ": file already closed");
  if (std::fflush(file_) != 0) fail("write", errno);
  if (::fsync(::fileno(file_)) != 0) fail("sync", errno);
  FILE* file = std::exchange(file_, nullptr);
  if (std::fclose(file) != 0) fail("close", errno);
  if (staging_ == Staging::kFollowSet) {
    if (OutputSet::stage(final_path_, temp_path_, cleanup_slot_, hash_.hex(), hash_.bytes())) {
      temp_exists_ = false;  // the set's now, with its cleanup slot
      cleanup_slot_ = -1;
      return;
    }
    leave_set(final_path_);
  }
  if (std::rename(temp_path_.c_str(), final_path_.c_str()) != 0) fail("rename onto", errno);
  temp_exists_ = false;
  unregister_exit_cleanup(std::exchange(cleanup_slot_, -1));
  sync_directory_of(final_path_);
}

void AtomicFile::fail(const std::string& step, int errno_value) {
  discard();
  throw IoError(describe_errno("cannot " + step + " " + final_path_, errno_value) +
                remedy(errno_value));
}

void AtomicFile::discard() noexcept {
  if (file_ != nullptr) std::fclose(std::exchange(file_, nullptr));
  if (temp_exists_) ::unlink(temp_path_.c_str());
  temp_exists_ = false;
  unregister_exit_cleanup(std::exchange(cleanup_slot_, -1));
}

void write_file_atomically(const std::string& path, std::string_view contents) {
  AtomicFile file(path);
  file.write(contents);
  file.commit();
}

}  // namespace cae
