#pragma once
// Readers that take a path rather than bytes (the data sources, the output
// set's manifest, files found beside others) are fuzzed through real files:
// each input is written into one folder made for the fuzzing process (under
// /dev/shm when it exists, so no disk is touched) and removed at exit.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace cae::fuzz {

inline const std::string& scratch_folder() {
  static const std::string folder = [] {
    std::string pattern =
        std::filesystem::is_directory("/dev/shm") ? "/dev/shm/cae-fuzz-XXXXXX" : "/tmp/cae-fuzz-XXXXXX";
    if (!::mkdtemp(pattern.data())) {
      std::perror("mkdtemp");
      std::abort();
    }
    static std::string made = pattern;
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(made, ignored);
    });
    return pattern;
  }();
  return folder;
}

// Writes `bytes` to scratch_folder()/name (folders made as needed); the path.
inline std::string put_scratch_file(const std::string& name, const std::string& bytes) {
  const std::filesystem::path path = std::filesystem::path(scratch_folder()) / name;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::abort();
  }
  return path.string();
}

// Empties the scratch folder between inputs that make different files.
inline void clear_scratch_folder() {
  for (const auto& entry : std::filesystem::directory_iterator(scratch_folder())) {
    std::filesystem::remove_all(entry.path());
  }
}

}  // namespace cae::fuzz
