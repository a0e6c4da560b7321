#include "io/output_lock.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <string>
#include <utility>

#include "io/directory.hpp"
#include "io/exit_cleanup.hpp"
#include "io/io_error.hpp"

namespace cae {

namespace {

// What a lock file holds: a line no user file starts with by chance, so a
// file of the lock's name that lacks it is never taken for a lock.
constexpr char kMarker[] = "cae output lock, pid ";
constexpr char kFolderLockName[] = ".cae.lock";  // an output folder's lock file

std::string contents_of(int fd) {
  char text[64] = {};
  const ssize_t got = ::pread(fd, text, sizeof text - 1, 0);
  return got > 0 ? std::string(text, static_cast<size_t>(got)) : std::string();
}

// The pid a cae lock file names, or 0 when the file is not a cae lock.
long locking_pid(const std::string& contents) {
  const std::string marker = kMarker;
  if (contents.compare(0, marker.size(), marker) != 0) return 0;
  long pid = 0;
  size_t i = marker.size();
  for (; i < contents.size() && contents[i] >= '0' && contents[i] <= '9' && pid < 100000000L; ++i)
    pid = pid * 10 + (contents[i] - '0');
  return i < contents.size() && contents[i] == '\n' ? pid : 0;
}

void write_marker(int fd) {
  const std::string line = kMarker + std::to_string(static_cast<long>(::getpid())) + "\n";
  if (::ftruncate(fd, 0) == 0) {
    const ssize_t ignored = ::pwrite(fd, line.data(), line.size(), 0);
    (void)ignored;
  }
}

std::string not_a_lock(const std::string& lock_path, const std::string& what) {
  return lock_path + " " + what +
         ", not a lock of a running cae; cae leaves it alone: remove it or choose another output";
}

// True when `fd` is still the file named `path`: the previous holder removes
// the file on release, so a lock taken on a just-removed file protects nothing.
bool still_named(int fd, const std::string& path) {
  struct stat by_fd {
  }, by_name{};
  return ::fstat(fd, &by_fd) == 0 && ::lstat(path.c_str(), &by_name) == 0 &&
         by_fd.st_dev == by_name.st_dev && by_fd.st_ino == by_name.st_ino;
}

// An existing lock file opened to be read, never through a link and never
// blocking; -1 when there is none or it is not a regular file.
int open_lock_to_read(const std::string& lock_path) {
  const int fd = ::open(lock_path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// The pid a cae lock file at `lock_path` names, or 0 (none, not a lock).
long pid_in_lock_file(const std::string& lock_path) {
  const int fd = open_lock_to_read(lock_path);
  if (fd < 0) return 0;
  const long pid = locking_pid(contents_of(fd));
  ::close(fd);
  return pid;
}

std::string by_whom(long pid) {
  return pid > 0 ? "another cae process (pid " + std::to_string(pid) + ")" : "another cae process";
}

// A file of `dir` that a live cae is writing on its own, named for the
// message of a folder writer that has to wait for it.
std::string file_being_written_in(const std::string& dir) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    const std::string suffix = ".lock";
    if (name == kFolderLockName || name.size() <= suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
      continue;
    }
    const long pid = pid_in_lock_file(entry.path().string());
    if (pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM)) {
      return entry.path().string().substr(0, entry.path().string().size() - suffix.size()) +
             ", pid " + std::to_string(pid);
    }
  }
  return "";
}

// Takes the flock of the folder `dir` itself (see output_lock.hpp): shared
// for a file of it, exclusive for the whole folder. Returns its descriptor.
int lock_folder(const std::string& dir, OutputLock::Scope scope, const std::string& output) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw IoError(describe_errno("cannot lock " + output + ": cannot open " + dir, errno));
  const bool whole = scope == OutputLock::Scope::kFolder;
  if (::flock(fd, (whole ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0) return fd;
  const int error = errno;
  ::close(fd);
  if (error != EWOULDBLOCK) throw IoError(describe_errno("cannot lock " + dir, error));
  const std::string wait = "; wait for it to finish or choose another output";
  if (whole) {
    const std::string file = file_being_written_in(dir);
    throw IoError(dir + " is being written by another cae process" +
                  (file.empty() ? std::string() : " (writing " + file + ")") + wait);
  }
  throw IoError(output + " lies in " + dir + ", which is being written by " +
                by_whom(pid_in_lock_file(dir + "/" + kFolderLockName)) + wait);
}

// Holds back SIGINT, SIGTERM and SIGHUP on this thread while alive: between
// creating the lock file and registering it for the exit cleanup, a signal
// would leave the file behind (seen under load in cli.reliability). A signal
// that arrives meanwhile is delivered when the scope ends, after registration.
class DeferTerminationSignals {
 public:
  DeferTerminationSignals() {
    sigset_t deferred;
    sigemptyset(&deferred);
    for (int number : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&deferred, number);
    active_ = ::pthread_sigmask(SIG_BLOCK, &deferred, &previous_) == 0;
  }
  ~DeferTerminationSignals() {
    if (active_) ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  DeferTerminationSignals(const DeferTerminationSignals&) = delete;
  DeferTerminationSignals& operator=(const DeferTerminationSignals&) = delete;

 private:
  sigset_t previous_{};
  bool active_ = false;
};

}  // namespace

OutputLock::OutputLock(std::string lock_path, const std::string& output, Scope scope)
    : lock_path_(std::move(lock_path)) {
  const DeferTerminationSignals deferred;
  const std::string folder = parent_directory(lock_path_);
  // A file writer takes its folder first, a folder writer last (after its
  // lock file, whose pid names it to the others): all without waiting, so
  // the order cannot deadlock.
  if (scope == Scope::kFile) folder_fd_ = lock_folder(folder, scope, output);
  try {
    take_lock_file(output);
    if (scope == Scope::kFolder) folder_fd_ = lock_folder(folder, scope, output);
  } catch (...) {
    release();
    throw;
  }
}

void OutputLock::take_lock_file(const std::string& output) {
  // A file of the lock's name that cae did not create is never opened for
  // writing, truncated or removed, and a symbolic link there is never
  // followed: the lock is created with O_EXCL | O_NOFOLLOW, and an existing
  // one is taken over only when it is a cae lock whose holder is gone.
  for (int attempt = 0;; ++attempt) {
    fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd_ >= 0) {
      if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) break;
      // Another cae is looking at the file we just made (it finds no marker
      // and lets go): ours all the same, so wait for the lock.
      if (::flock(fd_, LOCK_EX) == 0) break;
      const int error = errno;
      ::unlink(lock_path_.c_str());
      ::close(fd_);
      fd_ = -1;
      throw IoError(describe_errno("cannot lock " + lock_path_, error));
    }
    if (errno != EEXIST) {
      throw IoError(
          describe_errno("cannot lock " + output + ": cannot create " + lock_path_, errno));
    }
    const int fd = ::open(lock_path_.c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
      const int error = errno;
      if (error == ENOENT && attempt < 100) continue;  // its holder removed it meanwhile
      if (error == ELOOP) throw IoError(not_a_lock(lock_path_, "is a symbolic link"));
      throw IoError(describe_errno("cannot lock " + output + ": cannot open " + lock_path_, error));
    }
    struct stat status {};
    if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
      ::close(fd);
      throw IoError(not_a_lock(lock_path_, "exists and is not a regular file"));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      const long pid = locking_pid(contents_of(fd));
      ::close(fd);
      if (error != EWOULDBLOCK) throw IoError(describe_errno("cannot lock " + lock_path_, error));
      throw IoError(output + " is being written by another " +
                    (pid > 0 ? "cae process (pid " + std::to_string(pid) + ")" : "process") +
                    "; wait for it to finish or choose another output");
    }
    if (!still_named(fd, lock_path_)) {  // removed and perhaps re-created meanwhile
      ::close(fd);
      continue;
    }
    // Nobody holds it: the kernel drops the lock of a process however it
    // ends, so this is a stale lock if it is cae's at all.
    const std::string contents = contents_of(fd);
    if (locking_pid(contents) > 0) {
      fd_ = fd;
      break;
    }
    ::close(fd);
    // An empty file may be a lock its creator has not marked yet.
    if (contents.empty() && attempt < 20) {
      ::usleep(20000);
      continue;
    }
    throw IoError(not_a_lock(lock_path_, "exists"));
  }
  write_marker(fd_);
  cleanup_slot_ = register_exit_cleanup(lock_path_);
}

OutputLock::OutputLock(OutputLock&& other) noexcept
    : lock_path_(std::move(other.lock_path_)),
      fd_(std::exchange(other.fd_, -1)),
      folder_fd_(std::exchange(other.folder_fd_, -1)),
      cleanup_slot_(std::exchange(other.cleanup_slot_, -1)) {}

OutputLock::~OutputLock() { release(); }

void OutputLock::release() noexcept {
  if (fd_ >= 0) {
    unregister_exit_cleanup(std::exchange(cleanup_slot_, -1));
    ::unlink(lock_path_.c_str());  // while still holding the lock: see still_named
    ::close(std::exchange(fd_, -1));
  }
  if (folder_fd_ >= 0) ::close(std::exchange(folder_fd_, -1));
}

OutputLock lock_output_file(const std::string& path) {
  return OutputLock(path + ".lock", path, OutputLock::Scope::kFile);
}

OutputLock lock_output_directory(const std::string& dir) {
  return OutputLock(dir + "/" + kFolderLockName, dir, OutputLock::Scope::kFolder);
}

long folder_writer(const std::string& dir) {
  const std::string lock_path = dir + "/" + kFolderLockName;
  const int fd = open_lock_to_read(lock_path);
  if (fd < 0) return 0;
  long pid = locking_pid(contents_of(fd));
  if (pid == static_cast<long>(::getpid())) pid = 0;  // this process: no other writer
  // Held means alive: the kernel drops the lock of a process however it ends.
  if (pid > 0 && ::flock(fd, LOCK_SH | LOCK_NB) == 0) {
    ::flock(fd, LOCK_UN);
    pid = 0;
  }
  ::close(fd);
  return pid;
}

}  // namespace cae
