// Argument checks shared by the reference ops: a size mismatch is a bug in the
// calling test, reported with the op and argument it concerns.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace cae_ref {

inline void require_size(const char* op, const char* name, const std::vector<double>& v,
                         int64_t expected) {
  if (static_cast<int64_t>(v.size()) != expected) {
    throw std::invalid_argument(std::string("cae_ref::") + op + ": " + name + " has " +
                                std::to_string(v.size()) + " elements, expected " +
                                std::to_string(expected));
  }
}

inline void require_that(bool condition, const char* op, const std::string& what) {
  if (!condition) throw std::invalid_argument(std::string("cae_ref::") + op + ": " + what);
}

}  // namespace cae_ref
