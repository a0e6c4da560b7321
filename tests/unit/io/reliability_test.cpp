// The io/ layer's part of the reliability contract (docs/reliability.md):
// non-finite values refused at load and at write, labels checked before they
// are narrowed, stale temporaries of dead processes removed, a fatal signal
// removing registered files, and one writer per output.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>

#include "io/atomic_file.hpp"
#include "io/exit_cleanup.hpp"
#include "io/finite.hpp"
#include "io/io_error.hpp"
#include "io/npy.hpp"
#include "io/npy_header.hpp"
#include "io/output_lock.hpp"
#include "io/safetensors.hpp"
#include "io/failure_of.hpp"
#include "io/scratch_dir.hpp"

namespace fs = std::filesystem;
using cae::IoError;
using cae::test::failure_of;
using cae::test::ScratchDir;

namespace {

// A pid that is certainly not running: a child that has exited and been reaped.
pid_t dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

}  // namespace

TEST_CASE("first_non_finite finds NaN and both infinities") {
  const float inf = std::numeric_limits<float>::infinity();
  const float values[] = {0.0f, -1.0f, 3e38f, std::nanf(""), inf};
  CHECK(cae::first_non_finite(values, 3) == 3);
  CHECK(cae::first_non_finite(values, 5) == 3);
  const float negative[] = {1.0f, -inf};
  CHECK(cae::first_non_finite(negative, 2) == 1);
  CHECK(failure_of([&] { cae::require_finite(values, 5, "x.bin"); }) ==
        "x.bin holds a non-finite value (nan) at index 3");
}

TEST_CASE("a NaN or infinity in any tensor is refused at load, naming file and tensor") {
  ScratchDir dir;
  const std::string path = dir.file("t.safetensors");
  cae::write_safetensors(path, {{"a", {2}, {1.0f, 2.0f}}, {"b", {3}, {1.0f, 2.0f, 3.0f}}});
  std::string bytes = cae::test::read_bytes(path);
  const float nan = std::nanf("");
  std::memcpy(&bytes[bytes.size() - 4], &nan, 4);  // b[2]
  CHECK(failure_of([&] { cae::parse_safetensors(bytes, path); }) ==
        path + ": tensor 'b' holds a non-finite value (nan) at index 2");
}

TEST_CASE("non-finite values are refused at write, so what is written loads again") {
  ScratchDir dir;
  const std::string path = dir.file("t.safetensors");
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(failure_of([&] {
          cae::write_safetensors(path, {{"w", {2}, {1.0f, -inf}}});
        }) == "cannot write " + path + ": tensor 'w' holds a non-finite value (-inf) at index 1");
  const float row[] = {1.0f, std::nanf("")};
  CHECK_THROWS_AS(cae::write_npy_matrix(dir.file("f.npy"), row, 1, 2), IoError);
  CHECK(dir.listing() == "");
}

TEST_CASE("a JSON number too large for a double is a bad header naming the file") {
  const std::string json = R"({"a":{"dtype":"F32","shape":[1e999],"data_offsets":[0,4]}})";
  std::string bytes(8, '\0');
  bytes[0] = static_cast<char>(json.size());
  bytes += json + std::string(4, '\0');
  const std::string message = failure_of([&] { cae::parse_safetensors(bytes, "big.safetensors"); });
  CHECK(message.rfind("big.safetensors: bad JSON header: number overflow", 0) == 0);
  CHECK(message.find("json.exception") == std::string::npos);
}

TEST_CASE("a feature matrix with NaN is refused naming row and column") {
  ScratchDir dir;
  const std::string path = dir.file("f.npy");
  const float values[] = {1, 2, 3, 4, 5, 6};
  cae::write_npy_matrix(path, values, 2, 3);
  std::string bytes = cae::test::read_bytes(path);
  const float inf = std::numeric_limits<float>::infinity();
  std::memcpy(&bytes[bytes.size() - 8], &inf, 4);  // row 1, column 1
  CHECK(failure_of([&] { cae::parse_npy_matrix(bytes, path); }) ==
        path + ": value at row 1, column 1 is infinite (features must be finite numbers)");
}

TEST_CASE("labels are checked in 64 bits, before they are narrowed") {
  ScratchDir dir;
  const std::string path = dir.file("labels.npy");
  const int64_t labels[] = {3, (int64_t{1} << 32) + 3, 9};
  cae::test::write_bytes(path,
                         cae::encode_npy_header("<i8", {3}) +
                             std::string(reinterpret_cast<const char*>(labels), sizeof labels));
  CHECK(failure_of([&] { cae::read_npy_labels(path, 10); }) ==
        path + ": label 4294967299 at index 1 is not a class 0..9");
  cae::write_npy_vector(path, std::vector<int32_t>{0, 9, -1});
  CHECK(failure_of([&] { cae::read_npy_labels(path, 10); }) ==
        path + ": label -1 at index 2 is not a class 0..9");
  cae::write_npy_vector(path, std::vector<int32_t>{0, 9, 4});
  CHECK(cae::read_npy_labels(path, 10) == std::vector<int32_t>{0, 9, 4});
}

TEST_CASE("the next write of a name removes temporaries of dead processes, not of live ones") {
  ScratchDir dir;
  const std::string path = dir.file("out.bin");
  const std::string dead = path + ".tmp." + std::to_string(dead_pid());
  const std::string live = path + ".tmp." + std::to_string(::getppid());  // our parent is alive
  const std::string other = dir.file("other.bin.tmp.999999999");
  for (const std::string& name : {dead, live, other}) cae::test::write_bytes(name, "partial");
  cae::write_file_atomically(path, "complete");
  CHECK_FALSE(fs::exists(dead));
  CHECK(fs::exists(live));
  CHECK(fs::exists(other));  // another name's temporaries are not ours to judge
  CHECK(cae::test::read_bytes(path) == "complete");
}

TEST_CASE("a fatal signal removes registered files and exits with 128 + the signal") {
  for (int number : {SIGINT, SIGTERM, SIGHUP}) {
    ScratchDir dir;
    const std::string path = dir.file("temporary");
    const pid_t child = ::fork();
    if (child == 0) {
      cae::install_exit_cleanup();
      cae::AtomicFile file(path);  // registers its temporary
      cae::test::write_bytes(dir.file("started"), "");
      for (;;) ::pause();  // until the parent's signal
    }
    // From another process, as a user's would be: one a process raises
    // itself is a library giving up (below).
    while (!fs::exists(dir.file("started"))) ::usleep(1000);
    ::kill(child, number);
    int status = 0;
    ::waitpid(child, &status, 0);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 128 + number);
    CHECK(dir.listing() == "started");  // the temporary is gone
  }
}

TEST_CASE("a signal the process raises itself (OpenBLAS giving up) is a failure, exit 1") {
  ScratchDir dir;
  const pid_t child = ::fork();
  if (child == 0) {
    cae::install_exit_cleanup();
    cae::AtomicFile file(dir.file("temporary"));
    ::raise(SIGINT);
    ::_exit(0);  // not reached
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(dir.listing() == "");
}

TEST_CASE("a file-size limit is a write error (EFBIG), not a fatal SIGXFSZ") {
  ScratchDir dir;
  const pid_t child = ::fork();
  if (child == 0) {
    cae::install_exit_cleanup();
    ::raise(SIGXFSZ);  // ignored: a write past the limit fails with EFBIG instead
    ::_exit(7);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 7);
}

TEST_CASE("one writer per output: a second lock is refused until the first is released") {
  ScratchDir dir;
  const std::string out = dir.file("model.safetensors");
  {
    cae::OutputLock first = cae::lock_output_file(out);
    CHECK(fs::exists(out + ".lock"));
    const std::string message = failure_of([&] { cae::lock_output_file(out); });
    CHECK(message.rfind(out + " is being written by another cae process (pid " +
                            std::to_string(::getpid()) + ")",
                        0) == 0);
  }
  CHECK(dir.listing() == "");  // the lock file goes with the lock
  cae::OutputLock again = cae::lock_output_directory(dir.path());
  CHECK(dir.listing() == ".cae.lock");
}
