// The exception type of svm/: every message is one line (what failed and why)
// that the CLI can print as is. Backend and file errors keep their own types
// (cae::BackendError, cae::IoError), which are one line too.
#pragma once

#include <stdexcept>
#include <string>

namespace cae::svm {

class SvmError : public std::runtime_error {
 public:
  explicit SvmError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace cae::svm
