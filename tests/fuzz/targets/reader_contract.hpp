#pragma once
// What every fuzz target checks beyond "no crash": a reader either accepts the
// bytes or throws its own error type with a one-line message that names the
// file. Anything else (another exception type, a multi-line or anonymous
// message) aborts, which libFuzzer reports as a finding.

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cae::fuzz {

constexpr char kPath[] = "fuzzed.input";

// `names`: what the message must mention (the file, or the folder of a
// reader that reads several files).
inline void require_good_message(const char* message, const std::string& names = kPath) {
  const std::string text = message;
  if (text.find('\n') != std::string::npos || text.find(names) == std::string::npos) {
    std::fprintf(stderr, "reader contract broken: message not one line naming the file: %s\n",
                 message);
    std::abort();
  }
}

}  // namespace cae::fuzz
