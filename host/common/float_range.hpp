// Numbers read as double that the computation holds as float: a value below
// float's smallest normal number becomes 0 (or a denormal) there, one above
// its largest becomes infinity, so a setting that reads fine would act as
// "none" or overflow only after the work. Parsers refuse such values with
// this range in their message.
#pragma once

#include <cmath>
#include <limits>

namespace cae {

constexpr const char* kFloatRangeText = "1.2e-38 to 3.4e+38";

// True for 0 and for a finite magnitude within float's normal range.
inline bool fits_float(double value) {
  const double magnitude = std::fabs(value);
  return magnitude == 0.0 || (magnitude >= double(std::numeric_limits<float>::min()) &&
                              magnitude <= double(std::numeric_limits<float>::max()));
}

}  // namespace cae
