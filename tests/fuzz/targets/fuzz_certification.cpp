// Fuzzes the certification records cae reads beside a plugin
// (FILE.certified.json) and in the user's cache: never an exception, and a
// one-line summary. "@SHA@" in the input stands for the plugin file's
// SHA-256, so that inputs reach past the hash check.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "io/sha256.hpp"
#include "plugin/certification.hpp"
#include "scratch_folder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cae::fuzz;
  static const std::string plugin = [] {
    ::setenv("XDG_CACHE_HOME", (scratch_folder() + "/cache").c_str(), 1);
    return put_scratch_file("libcae-backend-fuzz.so", "not really a plugin\n");
  }();
  static const std::string sha256 = cae::sha256_of_file(plugin);
  std::string text(reinterpret_cast<const char*>(data), size);
  for (size_t at = text.find("@SHA@"); at != std::string::npos; at = text.find("@SHA@", at)) {
    text.replace(at, 5, sha256);
    at += sha256.size();
  }
  put_scratch_file("libcae-backend-fuzz.so.certified.json", text);
  put_scratch_file("cache/cae/certified/" + sha256 + ".json", text);
  const cae::Certification result = cae::certification_of(plugin, "fuzz", "1.0.0");
  if (result.summary.empty() || result.summary.find('\n') != std::string::npos) {
    std::fprintf(stderr, "certification summary not one line: %s\n", result.summary.c_str());
    std::abort();
  }
  return 0;
}
