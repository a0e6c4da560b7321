#include "io/finite.hpp"

#include <cmath>
#include <cstdio>

#include "io/io_error.hpp"

namespace cae {

size_t first_non_finite(const float* values, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (!std::isfinite(values[i])) return i;
  }
  return count;
}

void require_finite(const float* values, size_t count, const std::string& what) {
  const size_t at = first_non_finite(values, count);
  if (at == count) return;
  char value[16];
  std::snprintf(value, sizeof value, "%f", static_cast<double>(values[at]));
  throw IoError(what + " holds a non-finite value (" + value + ") at index " + std::to_string(at));
}

}  // namespace cae
