// `cae bench` over several backends at the same shapes: the results side by
// side, as a terminal table and as JSON.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "bench/model_benchmark.hpp"

namespace cae::bench {

struct BackendBench {
  std::string name;
  std::string device;     // when it ran
  std::string precision;  // "fp32", "tf32", ...
  bool ran = false;
  std::string skip_reason;  // why not, when !ran ("unavailable: no CUDA device", ...)
  BenchResult result;
};

struct BenchComparison {
  BenchSettings settings;
  std::vector<BackendBench> backends;  // in the order asked for
  // Index into backends of the one speed-ups are measured against: it ran.
  std::size_t reference = 0;
};

// Index of the reference: the backend named `name` (case-insensitive) when
// given, else the first that ran. Throws std::invalid_argument when none ran,
// or the named one is not in the list or did not run (saying why).
std::size_t choose_reference(const std::vector<BackendBench>& backends, const std::string& name);

// "12.3x" style speed-up of `ms` over `reference_ms` ("-" when undefined).
std::string speedup_text(double reference_ms, double ms);

// The terminal view: skipped backends with their reasons, then op by op one
// line per backend (ms, speed-up over the reference, TFLOP/s, GB/s), then
// the epoch, extraction and peak memory per backend.
std::string format_comparison(const BenchComparison& comparison);

// The same as JSON text (format "cae-bench-comparison", version 1).
std::string comparison_json(const BenchComparison& comparison);

}  // namespace cae::bench
