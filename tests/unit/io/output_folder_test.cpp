// An output folder as cae writes it (docs/reliability.md): files written under
// it stay inside it whatever links it holds, its writer excludes the writers
// of files in it (and the reverse), and a reader of a set being put in place
// by another cae waits for it or says so.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <iterator>
#include <string>

#include "io/atomic_file.hpp"
#include "io/binary_file.hpp"
#include "io/confined_folder.hpp"
#include "io/failure_of.hpp"
#include "io/output_lock.hpp"
#include "io/scratch_dir.hpp"
#include "io/sha256.hpp"
#include "text_contains.hpp"

namespace fs = std::filesystem;
using cae::test::failure_of;
using cae::test::read_bytes;
using cae::test::ScratchDir;
using cae::test::write_bytes;

namespace {

using test_support::contains;

// A manifest listing x.bin with the size and hash of `contents`.
std::string manifest_of_x(const std::string& contents, const std::string& state) {
  cae::Sha256 hash;
  hash.update(contents.data(), contents.size());
  return R"({"format": "cae-set", "version": 2, "run": "abc", "command": "cae test", "state": ")" +
         state + R"(", "files": {"x.bin": {"bytes": )" + std::to_string(contents.size()) +
         R"(, "sha256": ")" + hash.hex() + R"("}}})";
}

// Runs `writer` in a child process holding `dir`'s folder lock; returns once
// the child has taken it (the child then goes on, and exits when done).
pid_t start_folder_writer(const std::string& dir, const std::function<void(int)>& writer) {
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(ready[0]);
    {
      const cae::OutputLock lock = cae::lock_output_directory(dir);
      writer(ready[1]);
    }
    ::_exit(0);
  }
  ::close(ready[1]);
  char byte = 0;
  REQUIRE(::read(ready[0], &byte, 1) == 1);
  ::close(ready[0]);
  return child;
}

void signal_ready(int fd) {
  const char byte = 1;
  (void)!::write(fd, &byte, 1);
  ::close(fd);
}

}  // namespace

TEST_CASE("a file written under an output folder cannot leave it through a symbolic link") {
  ScratchDir dir;
  const std::string run = dir.file("run"), outside = dir.file("outside");
  fs::create_directories(run);
  fs::create_directories(outside);
  write_bytes(outside + "/confusion.png", "precious");
  fs::create_directory_symlink("../outside", run + "/figs");
  fs::create_symlink("../outside/confusion.png", run + "/model.safetensors");
  fs::create_directories(run + "/real");
  fs::create_directory_symlink("real", run + "/alias");  // stays inside: allowed
  {
    const cae::ConfinedFolder confined(run);
    const std::string message = failure_of(
        [&] { cae::write_file_atomically(run + "/figs/confusion.png", "overwritten"); });
    CHECK(contains(message, run + "/figs/confusion.png leads outside " + run + ": " + run +
                                "/figs is a symbolic link to ../outside"));
    CHECK_THROWS_AS(cae::write_file_atomically(run + "/model.safetensors", "x"),
                    cae::OutputPathError);
    cae::write_file_atomically(run + "/alias/ok.bin", "ok");
  }
  CHECK(read_bytes(outside + "/confusion.png") == "precious");
  CHECK(fs::is_symlink(run + "/model.safetensors"));
  CHECK(read_bytes(run + "/real/ok.bin") == "ok");
  // Nothing beside the file outside either, not even a temporary.
  CHECK(std::distance(fs::directory_iterator(outside), fs::directory_iterator()) == 1);
  // The checks made before any work find the same link.
  const auto link = cae::link_leaving(run, run + "/figs/sub/x.png");
  REQUIRE(link.has_value());
  CHECK(link->link == run + "/figs");
  CHECK(!cae::link_leaving(run, run + "/alias/x.png").has_value());
  CHECK(!cae::link_leaving(run, run + "/new/x.png").has_value());
}

TEST_CASE("a folder's writer and the writers of files in it exclude each other") {
  ScratchDir dir;
  const std::string me = std::to_string(::getpid());
  {
    const cae::OutputLock folder = cae::lock_output_directory(dir.path());
    CHECK(contains(failure_of([&] { cae::lock_output_file(dir.file("m.safetensors")); }),
                   dir.file("m.safetensors") + " lies in " + dir.path() +
                       ", which is being written by another cae process (pid " + me + ")"));
    CHECK(dir.listing() == ".cae.lock");  // the refused lock left nothing
  }
  {
    const cae::OutputLock file = cae::lock_output_file(dir.file("m.safetensors"));
    const cae::OutputLock other = cae::lock_output_file(dir.file("other.model"));  // shared
    CHECK(contains(failure_of([&] { cae::lock_output_directory(dir.path()); }),
                   dir.path() + " is being written by another cae process (writing "));
    CHECK(dir.listing() == "m.safetensors.lock other.model.lock");
  }
  CHECK(dir.listing().empty());
}

TEST_CASE("a reader waits while another cae puts a set in place, and says when it replaced a file") {
  ScratchDir dir;
  write_bytes(dir.file("x.bin"), "new");
  write_bytes(dir.file("cae-set.json"), manifest_of_x("new", "writing"));
  const pid_t publisher = start_folder_writer(dir.path(), [&](int ready) {
    signal_ready(ready);
    ::usleep(300000);  // the renames of a set, on a slow machine
    cae::write_file_atomically(dir.file("cae-set.json"), manifest_of_x("new", "complete"));
  });
  CHECK(cae::read_binary_file(dir.file("x.bin")) == "new");  // waited, not refused
  int status = 0;
  ::waitpid(publisher, &status, 0);

  // The manifest lists other contents while its writer is still at work: the
  // folder is being written, not mixed.
  write_bytes(dir.file("cae-set.json"), manifest_of_x("old", "complete"));
  int done[2];
  REQUIRE(::pipe(done) == 0);
  const pid_t writer = start_folder_writer(dir.path(), [&](int ready) {
    ::close(done[1]);
    signal_ready(ready);
    char byte = 0;
    (void)!::read(done[0], &byte, 1);  // until the reader has looked
  });
  ::close(done[0]);
  CHECK(contains(failure_of([&] { cae::read_binary_file(dir.file("x.bin")); }),
                 dir.path() + " is being written by another cae process (pid " +
                     std::to_string(writer) + "); wait for it to finish"));
  ::close(done[1]);
  ::waitpid(writer, &status, 0);
  // Once it is gone, the same folder is what it is: files of two runs.
  CHECK(contains(failure_of([&] { cae::read_binary_file(dir.file("x.bin")); }),
                 "the folder mixes files of two runs"));
}
