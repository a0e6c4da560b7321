// What cae does around the files it writes and reads (docs/reliability.md):
// output locks that never touch a file cae did not create, inputs that are
// refused before an open can block, paths from files kept inside their
// folder, and output sets that replace each other whole or not at all.
#include <doctest/doctest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>

#include "io/atomic_file.hpp"
#include "io/binary_file.hpp"
#include "io/contained_path.hpp"
#include "io/exit_cleanup.hpp"
#include "io/failure_of.hpp"
#include "io/io_error.hpp"
#include "io/npy.hpp"
#include "io/output_lock.hpp"
#include "io/output_set.hpp"
#include "io/regular_file.hpp"
#include "io/scratch_dir.hpp"

namespace fs = std::filesystem;
using cae::test::failure_of;
using cae::test::read_bytes;
using cae::test::ScratchDir;
using cae::test::write_bytes;

TEST_CASE("a user's file named like the lock is refused and left exactly as it was") {
  ScratchDir dir;
  const std::string out = dir.file("model.safetensors");
  write_bytes(out + ".lock", "my notes\n");
  const std::string message = failure_of([&] { cae::lock_output_file(out); });
  CHECK(message.find(out + ".lock exists, not a lock of a running cae") != std::string::npos);
  CHECK(read_bytes(out + ".lock") == "my notes\n");
  write_bytes(dir.file(".cae.lock"), "");  // empty: not a lock either
  CHECK(failure_of([&] { cae::lock_output_directory(dir.path()); }).find("not a lock") !=
        std::string::npos);
  CHECK(fs::exists(dir.file(".cae.lock")));
}

TEST_CASE("a symbolic link at the lock's name is not followed") {
  ScratchDir dir;
  const std::string target = dir.file("precious.txt");
  write_bytes(target, "keep me\n");
  const std::string out = dir.file("m.safetensors");
  fs::create_symlink(target, out + ".lock");
  CHECK(failure_of([&] { cae::lock_output_file(out); }).find("is a symbolic link") !=
        std::string::npos);
  CHECK(read_bytes(target) == "keep me\n");
  CHECK(fs::is_symlink(out + ".lock"));
  fs::create_symlink(dir.file("nowhere"), dir.file(".cae.lock"));  // dangling: not created either
  CHECK(failure_of([&] { cae::lock_output_directory(dir.path()); }).find("symbolic link") !=
        std::string::npos);
  CHECK(!fs::exists(dir.file("nowhere")));
}

TEST_CASE("a cae lock left by a dead process is taken over; a live one is not") {
  ScratchDir dir;
  const std::string out = dir.file("m.safetensors");
  write_bytes(out + ".lock", "cae output lock, pid 999999999\n");  // nobody holds it
  {
    cae::OutputLock lock = cae::lock_output_file(out);
    CHECK(read_bytes(out + ".lock") == "cae output lock, pid " + std::to_string(::getpid()) + "\n");
  }
  CHECK(!fs::exists(out + ".lock"));  // ours now, so ours to remove
}

TEST_CASE("FIFOs, sockets and devices are refused before an open can block") {
  ScratchDir dir;
  const std::string fifo = dir.file("features.npy");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto start = std::chrono::steady_clock::now();
  CHECK(failure_of([&] { cae::read_binary_file(fifo); }) ==
        "cannot read " + fifo + ": it is a FIFO, not a regular file");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(failure_of([&] { cae::read_binary_file("/dev/zero"); }) ==
        "cannot read /dev/zero: it is a device, not a regular file");
  CHECK(failure_of([&] { cae::read_binary_file(dir.path()); }) ==
        "cannot read " + dir.path() + ": it is a folder");
  const std::string socket_path = dir.file("s");
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  socket_path.copy(address.sun_path, sizeof address.sun_path - 1);
  REQUIRE(::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  std::string error;
  CHECK(!cae::open_regular_file(socket_path, error));
  CHECK(error.find("it is a socket") != std::string::npos);  // open() of a socket fails: ENXIO
  ::close(sock);
}

TEST_CASE("paths read from a file stay inside its folder") {
  CHECK(cae::stays_inside_folder("confusion.png"));
  CHECK(cae::stays_inside_folder("figures/loss.png"));
  CHECK_FALSE(cae::stays_inside_folder(""));
  CHECK_FALSE(cae::stays_inside_folder("/etc/passwd"));
  CHECK_FALSE(cae::stays_inside_folder("../outside.png"));
  CHECK_FALSE(cae::stays_inside_folder("a/../../b"));
  CHECK_FALSE(cae::stays_inside_folder("./a"));
  CHECK(failure_of([] { cae::path_inside("run", "../x", "run/report.json", "files.confusion_png"); }) ==
        "run/report.json: files.confusion_png is '../x', which is not a name inside its folder "
        "(an absolute path or '..' is refused)");
}

TEST_CASE("an output set replaces the previous one whole, or not at all") {
  ScratchDir dir;
  const auto write_set = [&](const std::string& tag, bool finish) {
    cae::OutputSet set(dir.path(), "cae test");
    cae::write_file_atomically(dir.file("a.bin"), "a of " + tag);
    CHECK(read_bytes(dir.file("a.bin")) != "a of " + tag);  // staged, not yet in place
    CHECK(read_bytes(cae::OutputSet::readable_path(dir.file("a.bin"))) == "a of " + tag);
    cae::write_file_atomically(dir.file("b.bin"), "b of " + tag);
    if (finish) set.publish();
  };
  write_set("one", true);
  CHECK(read_bytes(dir.file("a.bin")) == "a of one");
  CHECK(cae::read_binary_file(dir.file("b.bin")) == "b of one");
  write_set("two", false);  // stopped before the end: the first set stays, no temporaries
  CHECK(dir.listing() == "a.bin b.bin cae-set.json");
  CHECK(cae::read_binary_file(dir.file("a.bin")) == "a of one");
  write_set("three", true);
  CHECK(cae::read_binary_file(dir.file("a.bin")) == "a of three");
  CHECK(cae::read_binary_file(dir.file("b.bin")) == "b of three");
}

TEST_CASE("a reader refuses a file replaced after its set was written, naming both") {
  ScratchDir dir;
  {
    cae::OutputSet set(dir.path(), "cae extract");
    cae::write_file_atomically(dir.file("train.npy"), "train");
    cae::write_file_atomically(dir.file("test.npy"), "test");
    set.publish();
  }
  write_bytes(dir.file("test.npy"), "test of another run");  // copied in by hand
  const std::string message = failure_of([&] { cae::read_binary_file(dir.file("test.npy")); });
  CHECK(message.find(dir.file("test.npy") + " is not the file `cae extract` (set ") == 0);
  CHECK(message.find("the folder mixes files of two runs") != std::string::npos);
  CHECK(message.find(dir.file("cae-set.json")) != std::string::npos);
  CHECK(cae::read_binary_file(dir.file("train.npy")) == "train");
  write_bytes(dir.file("notes.txt"), "mine");  // not in the set: read as it is
  CHECK(cae::read_binary_file(dir.file("notes.txt")) == "mine");
}

TEST_CASE("a feature matrix is checked against its set as it is read, in chunks") {
  // More values than one chunk of the reader (16 MiB): the hash, the finite
  // check and the error's row and column must follow the chunks' offsets.
  constexpr size_t kRows = 2100, kCols = 2048;
  std::vector<float> values(kRows * kCols);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 9973) * 0.25f;
  ScratchDir dir;
  const std::string path = dir.file("train_features.npy");
  {
    cae::OutputSet set(dir.path(), "cae extract");
    cae::write_npy_matrix(path, values.data(), kRows, kCols);
    set.publish();
  }
  const cae::FloatMatrix read = cae::read_npy_matrix(path);
  CHECK(read.rows == kRows);
  CHECK(read.cols == kCols);
  CHECK(read.values == values);
  // One value of the second chunk changed (still finite) after the set was
  // written: the bytes hashed while reading are not the recorded ones.
  const size_t changed = kRows * kCols - 5;
  std::string bytes = read_bytes(path);
  const size_t data_offset = bytes.size() - values.size() * sizeof(float);
  float other = 1.5f;
  std::memcpy(&bytes[data_offset + changed * sizeof(float)], &other, sizeof other);
  write_bytes(path, bytes);
  const std::string mixed = failure_of([&] { cae::read_npy_matrix(path); });
  CHECK(mixed.find(path + " is not the file `cae extract` (set ") == 0);
  // A NaN there is refused first, at its own row and column.
  other = std::nanf("");
  std::memcpy(&bytes[data_offset + changed * sizeof(float)], &other, sizeof other);
  write_bytes(path, bytes);
  CHECK(failure_of([&] { cae::read_npy_matrix(path); }) ==
        path + ": value at row " + std::to_string(changed / kCols) + ", column " +
            std::to_string(changed % kCols) + " is NaN (features must be finite numbers)");
}

TEST_CASE("a file written on its own into a set's folder leaves the set") {
  ScratchDir dir;
  {
    cae::OutputSet set(dir.path(), "cae pipeline");
    cae::write_file_atomically(dir.file("model.safetensors"), "model one");
    cae::write_file_atomically(dir.file("svm.model"), "svm one");
    set.publish();
  }
  cae::write_file_atomically(dir.file("model.safetensors"), "model two");  // `cae train --out`
  CHECK(cae::read_binary_file(dir.file("model.safetensors")) == "model two");
  CHECK(read_bytes(dir.file("cae-set.json")).find("model.safetensors") == std::string::npos);
  CHECK(cae::read_binary_file(dir.file("svm.model")) == "svm one");
}

TEST_CASE("a set left half-written (SIGKILL while renaming) is refused") {
  ScratchDir dir;
  write_bytes(dir.file("cae-set.json"),
              R"({"format": "cae-set", "version": 2, "run": "abc", "command": "cae data synth",)"
              R"( "state": "writing", "files": {"x.bin": {"bytes": 1, "sha256": "0"}}})");
  write_bytes(dir.file("x.bin"), "x");
  CHECK(failure_of([&] { cae::read_binary_file(dir.file("x.bin")); })
            .find("holds a half-written set of files: `cae data synth` (set abc) was stopped") !=
        std::string::npos);
  write_bytes(dir.file("cae-set.json"), "{");
  CHECK(failure_of([&] { cae::read_binary_file(dir.file("x.bin")); })
            .find("cae-set.json is not a cae output-set manifest") != std::string::npos);
}

TEST_CASE("a manifest of the wrong types is refused with one line, never converted") {
  ScratchDir dir;
  write_bytes(dir.file("x.bin"), "x");
  const std::string entry = R"("files": {"x.bin": {"bytes": 1, "sha256": "0"}}, "state": "complete")";
  const std::map<std::string, std::string> cases = {
      // A version out of int's range was converted (undefined), a string threw nlohmann's text.
      {R"({"format": "cae-set", "version": 1e300, )" + entry + "}", "has manifest version 1e+300"},
      {R"({"format": "cae-set", "version": "2", )" + entry + "}", R"(has manifest version "2")"},
      {R"({"format": 7, "version": 2, )" + entry + "}", "is not a cae output-set manifest"},
      {R"({"format": "cae-set", "version": 2, "files": {"x.bin": {"sha256": "0"}}, "state": "complete"})",
       "is not a cae output-set manifest (entry 'x.bin')"},
      {R"({"format": "cae-set", "format": "cae-set", "version": 2, )" + entry + "}",
       "is not a cae output-set manifest"},
  };
  for (const auto& [manifest, expected] : cases) {
    CAPTURE(manifest);
    write_bytes(dir.file("cae-set.json"), manifest);
    const std::string message = failure_of([&] { cae::read_binary_file(dir.file("x.bin")); });
    CHECK(message.find(expected) != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
  }
  // The command and run a message quotes from the file stay on one line.
  write_bytes(dir.file("cae-set.json"),
              R"({"format": "cae-set", "version": 2, "run": "a\nb", "command": "x\ny",)"
              R"( "state": "writing", "files": {"x.bin": {"bytes": 1, "sha256": "0"}}})");
  const std::string message = failure_of([&] { cae::read_binary_file(dir.file("x.bin")); });
  CHECK(message.find("`x\\x0ay` (set a\\x0ab)") != std::string::npos);
}

TEST_CASE("a fatal signal while a set is put in place waits for the set to be complete") {
  ScratchDir dir;
  const pid_t child = ::fork();
  if (child == 0) {
    cae::install_exit_cleanup();
    cae::OutputSet set(dir.path(), "cae test");
    cae::write_file_atomically(dir.file("a.bin"), "a");
    cae::defer_fatal_signals();
    ::raise(SIGTERM);  // held back: the set is still published
    set.publish();
    cae::resume_fatal_signals();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 128 + SIGTERM);
  CHECK(read_bytes(dir.file("a.bin")) == "a");
  CHECK(dir.listing() == "a.bin cae-set.json");
}

TEST_CASE("a bounded read refuses a larger file before reading it") {
  cae::test::ScratchDir dir;
  cae::test::write_bytes(dir.file("small.json"), "{}");
  CHECK(cae::read_binary_file(dir.file("small.json"), 2, "a small file") == "{}");
  // A sparse file of 1 GiB: refused by its size, never read into memory.
  {
    std::ofstream big(dir.file("big.json"), std::ios::binary);
    big.seekp((std::streamoff(1) << 30) - 1);
    big.put('\n');
  }
  CHECK(failure_of([&] { cae::read_binary_file(dir.file("big.json"), 1 << 20, "a small file"); }) ==
        dir.file("big.json") + " is 1073741824 bytes; a small file is at most 1048576 bytes");
}
