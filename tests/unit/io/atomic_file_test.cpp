#include "io/atomic_file.hpp"

#include <doctest/doctest.h>

#include <filesystem>

#include "io/output_set.hpp"
#include "io/scratch_dir.hpp"
#include "io/sha256.hpp"

namespace fs = std::filesystem;
using cae::AtomicFile;
using cae::IoError;
using cae::test::ScratchDir;

TEST_CASE("a committed file has its full contents and no temp file remains") {
  ScratchDir dir;
  const std::string path = dir.file("out.bin");
  {
    AtomicFile file(path);
    file.write("hello ");
    file.write("world");
    CHECK_FALSE(fs::exists(path));  // nothing under the final name before commit
    CHECK(fs::exists(file.temp_path()));
    file.commit();
  }
  CHECK(cae::test::read_bytes(path) == "hello world");
  CHECK(dir.listing() == "out.bin");
}

TEST_CASE("commit replaces an existing file") {
  ScratchDir dir;
  const std::string path = dir.file("out.txt");
  cae::write_file_atomically(path, "old contents");
  cae::write_file_atomically(path, "new");
  CHECK(cae::test::read_bytes(path) == "new");
  CHECK(dir.listing() == "out.txt");
}

TEST_CASE("without commit the temp file is removed and the old file is untouched") {
  ScratchDir dir;
  const std::string path = dir.file("keep.txt");
  cae::write_file_atomically(path, "original");
  {
    AtomicFile file(path);
    file.write("half-written");
  }
  CHECK(cae::test::read_bytes(path) == "original");
  CHECK(dir.listing() == "keep.txt");
}

TEST_CASE("an exception while writing leaves nothing under the final name") {
  ScratchDir dir;
  const std::string path = dir.file("never.bin");
  try {
    AtomicFile file(path);
    file.write("partial");
    throw std::runtime_error("interrupted");
  } catch (const std::runtime_error&) {
  }
  CHECK(dir.listing() == "");
}

TEST_CASE("the temp file sits next to the final one and carries the pid") {
  ScratchDir dir;
  AtomicFile file(dir.file("x.safetensors"));
  CHECK(file.temp_path() == dir.file("x.safetensors") + ".tmp." + std::to_string(::getpid()));
}

TEST_CASE("a missing or unwritable directory is a one-line error naming the path") {
  ScratchDir dir;
  const std::string missing = dir.file("no-such-dir/out.bin");
  CHECK_THROWS_WITH_AS(AtomicFile{missing},
                       ("cannot write " + missing + ": cannot create " + missing + ".tmp." +
                        std::to_string(::getpid()) + ": No such file or directory")
                           .c_str(),
                       IoError);
  // A regular file where a directory should be fails even for root.
  cae::test::write_bytes(dir.file("plain"), "x");
  const std::string under_file = dir.file("plain/out.bin");
  CHECK_THROWS_WITH_AS(
      AtomicFile{under_file},
      doctest::Contains(("cannot write " + under_file + ": cannot create").c_str()), IoError);
  CHECK_THROWS_WITH_AS(AtomicFile{under_file}, doctest::Contains("Not a directory"), IoError);
  CHECK(dir.listing() == "plain");
}

TEST_CASE("a failed rename reports it and removes the temp file") {
  ScratchDir dir;
  const std::string path = dir.file("taken");
  fs::create_directories(fs::path(path) / "child");  // a non-empty directory cannot be replaced
  AtomicFile file(path);
  file.write("data");
  CHECK_THROWS_WITH_AS(file.commit(), doctest::Contains(("cannot rename onto " + path).c_str()),
                       IoError);
  CHECK(dir.listing() == "taken");
  CHECK(fs::is_directory(path));
}

TEST_CASE("writing after commit is an error") {
  ScratchDir dir;
  AtomicFile file(dir.file("a"));
  file.commit();
  CHECK_THROWS_AS(file.write("late"), IoError);
}

TEST_CASE("ensure_directory creates parents, accepts an existing one and rejects a file") {
  ScratchDir dir;
  const std::string nested = dir.file("a/b/c");
  cae::ensure_directory(nested);
  CHECK(fs::is_directory(nested));
  CHECK_NOTHROW(cae::ensure_directory(nested));
  cae::test::write_bytes(dir.file("file"), "x");
  CHECK_THROWS_WITH_AS(
      cae::ensure_directory(dir.file("file")),
      ("cannot create directory " + dir.file("file") + ": it exists and is not a directory")
          .c_str(),
      IoError);
  CHECK_THROWS_WITH_AS(
      cae::ensure_directory(dir.file("file/sub")),
      doctest::Contains(("cannot create directory " + dir.file("file/sub") + ": ").c_str()),
      IoError);
}

TEST_CASE("a write larger than a chunk lands whole and in order, and the set records its hash") {
  ScratchDir dir;
  const std::string path = dir.file("big.bin");
  // Two whole chunks and a partial one, each byte telling its place.
  std::string big(2 * AtomicFile::kChunkBytes + 12345, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>((i * 2654435761u) >> 13);
  {
    cae::OutputSet set(dir.path(), "cae test");
    AtomicFile file(path);
    file.write("head");
    file.write(big.data(), big.size());
    file.write("tail");
    file.commit();
    set.publish();
  }
  const std::string expected = "head" + big + "tail";
  CHECK(cae::test::read_bytes(path) == expected);
  cae::Sha256 hash;
  hash.update(expected.data(), expected.size());
  const std::string manifest = cae::test::read_bytes(dir.file("cae-set.json"));
  CHECK(manifest.find(hash.hex()) != std::string::npos);
  CHECK(manifest.find(std::to_string(expected.size())) != std::string::npos);
}
