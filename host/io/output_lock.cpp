#include "io/output_lock.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <string>
#include <utility>

#include "io/exit_cleanup.hpp"
#include "io/io_error.hpp"

namespace cae {

namespace {

std::string holder_of(int fd) {
  char text[32] = {};
  const ssize_t got = ::pread(fd, text, sizeof text - 1, 0);
  std::string pid = got > 0 ? std::string(text, static_cast<size_t>(got)) : std::string();
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  return pid.empty() ? "another cae process" : "another cae process (pid " + pid + ")";
}

// True when `fd` is still the file named `path`: the previous holder removes
// the file on release, so a lock taken on a just-removed file protects nothing.
bool still_named(int fd, const std::string& path) {
  struct stat by_fd {
  }, by_name{};
  return ::fstat(fd, &by_fd) == 0 && ::stat(path.c_str(), &by_name) == 0 &&
         by_fd.st_dev == by_name.st_dev && by_fd.st_ino == by_name.st_ino;
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

OutputLock::OutputLock(std::string lock_path, const std::string& output)
    : lock_path_(std::move(lock_path)) {
  const DeferTerminationSignals deferred;
  for (;;) {
    fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd_ < 0)
      throw IoError(
          describe_errno("cannot lock " + output + ": cannot create " + lock_path_, errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      const std::string holder = error == EWOULDBLOCK ? holder_of(fd_) : std::string();
      ::close(fd_);
      fd_ = -1;
      if (error == EWOULDBLOCK) {
        throw IoError(output + " is being written by " + holder +
                      "; wait for it to finish or choose another output");
      }
      throw IoError(describe_errno("cannot lock " + lock_path_, error));
    }
    if (still_named(fd_, lock_path_)) break;
    ::close(fd_);
  }
  const std::string pid = std::to_string(static_cast<long>(::getpid())) + "\n";
  if (::ftruncate(fd_, 0) == 0) {
    const ssize_t ignored = ::pwrite(fd_, pid.data(), pid.size(), 0);
    (void)ignored;
  }
  cleanup_slot_ = register_exit_cleanup(lock_path_);
}

OutputLock::OutputLock(OutputLock&& other) noexcept
    : lock_path_(std::move(other.lock_path_)),
      fd_(std::exchange(other.fd_, -1)),
      cleanup_slot_(std::exchange(other.cleanup_slot_, -1)) {}

OutputLock::~OutputLock() {
  if (fd_ < 0) return;
  unregister_exit_cleanup(cleanup_slot_);
  ::unlink(lock_path_.c_str());  // while still holding the lock: see still_named
  ::close(fd_);
}

OutputLock lock_output_file(const std::string& path) { return OutputLock(path + ".lock", path); }

OutputLock lock_output_directory(const std::string& dir) {
  return OutputLock(dir + "/.cae.lock", dir);
}

}  // namespace cae
