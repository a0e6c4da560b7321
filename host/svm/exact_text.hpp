// Numbers in model metadata, written so that reading them back gives the
// same double.
#pragma once

#include <cstdio>
#include <string>

namespace cae::svm {

inline std::string exact_text(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

}  // namespace cae::svm
