#include "report/axis_ticks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cae {
namespace {

constexpr double kMaxAxisValue = 1e300;
constexpr double kMinLogAxisValue = 1e-250;
constexpr double kMaxLogAxisValue = 1e250;

// The smallest of 1, 2, 5 times a power of ten that is >= raw_step.
double nice_step(double raw_step) {
  double magnitude = std::pow(10.0, std::floor(std::log10(raw_step)));
  for (double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (factor * magnitude >= raw_step * (1.0 - 1e-9)) return factor * magnitude;
  }
  return 10.0 * magnitude;
}

std::string format_general(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// Ticks at mantissa * 10^k for every k whose value lies in [low, high].
std::vector<double> decade_ticks(double low, double high, const std::vector<int>& mantissas) {
  std::vector<double> ticks;
  int first = static_cast<int>(std::floor(std::log10(low))) - 1;
  int last = static_cast<int>(std::ceil(std::log10(high))) + 1;
  for (int exponent = first; exponent <= last; ++exponent) {
    for (int mantissa : mantissas) {
      // Parsing the decimal text gives the exact double of, say, 0.2.
      double value = std::stod(std::to_string(mantissa) + "e" + std::to_string(exponent));
      if (value >= low * (1 - 1e-12) && value <= high * (1 + 1e-12)) ticks.push_back(value);
    }
  }
  return ticks;
}

}  // namespace

std::string format_tick(double value, double step) {
  if (value == 0.0) return "0";
  double magnitude = std::fabs(value);
  char text[32];
  if (magnitude < 1e-3 || magnitude >= 1e6) {
    // Enough mantissa digits to tell neighbouring ticks apart.
    int digits = static_cast<int>(std::floor(std::log10(magnitude) + 1e-9) -
                                  std::floor(std::log10(step) + 1e-9));
    digits = std::clamp(digits, 0, 6);
    std::snprintf(text, sizeof text, "%.*e", digits, value);
    return text;
  }
  int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 8);
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

AxisTicks linear_ticks(double data_low, double data_high, int target_count) {
  if (data_low > data_high) std::swap(data_low, data_high);
  // An axis spans at most +-1e300: the span and the margins of values near
  // the largest double would overflow to infinity. Points beyond lie outside.
  data_low = std::clamp(data_low, -kMaxAxisValue, kMaxAxisValue);
  data_high = std::clamp(data_high, -kMaxAxisValue, kMaxAxisValue);
  if (data_high - data_low <= std::fabs(data_high) * 1e-12) {
    double half_span = data_high != 0.0 ? std::fabs(data_high) * 0.1 : 1.0;
    data_low -= half_span;
    data_high += half_span;
  }
  double step = nice_step((data_high - data_low) / std::max(target_count - 1, 1));
  AxisTicks ticks;
  ticks.low = std::floor(data_low / step + 1e-9) * step;
  ticks.high = std::ceil(data_high / step - 1e-9) * step;
  long count = std::lround((ticks.high - ticks.low) / step);
  for (long i = 0; i <= count; ++i) {
    double value = ticks.low + static_cast<double>(i) * step;
    if (std::fabs(value) < step * 1e-9) value = 0.0;  // no "-0.000"
    ticks.values.push_back(value);
    ticks.labels.push_back(format_tick(value, step));
  }
  return ticks;
}

AxisTicks log_ticks(double data_low, double data_high) {
  if (data_low > data_high) std::swap(data_low, data_high);
  // Decades 1e-250..1e250 at most: the margins and the next decade out
  // (x or / 10^k) must stay finite and non-zero for their logarithms.
  data_low = std::clamp(data_low, kMinLogAxisValue, kMaxLogAxisValue);
  data_high = std::clamp(data_high, kMinLogAxisValue, kMaxLogAxisValue);
  // A little room so the extreme points do not sit on the frame.
  double span = std::log10(data_high) - std::log10(data_low);
  double margin = std::max(span * 0.05, 0.02);
  AxisTicks ticks;
  ticks.low = data_low / std::pow(10.0, margin);
  ticks.high = data_high * std::pow(10.0, margin);

  for (const std::vector<int>& mantissas : {std::vector<int>{1}, std::vector<int>{1, 2, 5},
                                            std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
    std::vector<double> values = decade_ticks(ticks.low, ticks.high, mantissas);
    if (values.size() >= 3 || mantissas.size() == 9) {
      if (values.size() >= 2) {
        if (mantissas.size() > 1) {
          // Finely spaced ticks are cheap to reach: widen the axis to the
          // next one outside the data so both ends carry a label.
          std::vector<double> wider = decade_ticks(ticks.low / 10.0, ticks.high * 10.0, mantissas);
          auto below = std::upper_bound(wider.begin(), wider.end(), ticks.low);
          if (below != wider.begin()) ticks.low = *(below - 1);
          auto above = std::lower_bound(wider.begin(), wider.end(), ticks.high);
          if (above != wider.end()) ticks.high = *above;
          values = decade_ticks(ticks.low, ticks.high, mantissas);
        }
        ticks.values = values;
        for (double v : values) ticks.labels.push_back(format_general(v));
        return ticks;
      }
      break;
    }
  }
  // Less than a factor of two between the ends: plain evenly spaced ticks
  // read better than none.
  AxisTicks linear = linear_ticks(data_low, data_high, 4);
  for (std::size_t i = 0; i < linear.values.size(); ++i) {
    if (linear.values[i] >= ticks.low && linear.values[i] <= ticks.high) {
      ticks.values.push_back(linear.values[i]);
      ticks.labels.push_back(linear.labels[i]);
    }
  }
  return ticks;
}

AxisTicks integer_ticks(int first, int last) {
  if (first > last) std::swap(first, last);
  AxisTicks ticks;
  ticks.low = first;
  ticks.high = last;
  if (first == last) {  // one point: centre it
    ticks.low = first - 1;
    ticks.high = last + 1;
  }
  long step = std::max(1L, std::lround(nice_step(std::max(1.0, (last - first) / 9.0))));
  long start = (first + step - 1) / step * step;
  if (step == 1 || start > last) start = first;
  for (long value = start; value <= last; value += step) {
    ticks.values.push_back(static_cast<double>(value));
    ticks.labels.push_back(std::to_string(value));
  }
  return ticks;
}

}  // namespace cae
