// The seconds a phase of training took, for the timings the trainers report.
#pragma once

#include <chrono>

namespace cae::svm {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace cae::svm
