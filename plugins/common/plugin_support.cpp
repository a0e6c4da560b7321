#include "plugin_support.hpp"

#include <cstdio>

namespace cae_plugin {

std::string format_bytes(uint64_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.2f %s (%llu bytes)", value, units[unit],
                static_cast<unsigned long long>(bytes));
  return buf;
}

std::string Shape::str() const {
  std::string s = "[";
  for (int32_t i = 0; i < ndim; ++i) {
    if (i) s += ",";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

Shape make_shape(int32_t ndim, const int64_t* dims) {
  require(ndim >= 1 && ndim <= CAE_MAX_DIMS,
          "tensor_alloc: ndim must be 1.." + std::to_string(CAE_MAX_DIMS) + ", got " +
              std::to_string(ndim));
  require(dims != nullptr, "tensor_alloc: dims is NULL");
  Shape s;
  s.ndim = ndim;
  for (int32_t i = 0; i < ndim; ++i) {
    require(dims[i] >= 1, "tensor_alloc: dimension " + std::to_string(i) + " is " +
                              std::to_string(dims[i]) + ", must be >= 1");
    s.dims[i] = dims[i];
  }
  // Guard against element counts that overflow size computations.
  require(s.count() <= (int64_t(1) << 40), "tensor_alloc: " + s.str() + " is too large");
  return s;
}

std::string& thread_error() {
  thread_local std::string message;
  return message;
}

}  // namespace cae_plugin
