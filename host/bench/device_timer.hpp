// Times a piece of backend work: with the backend's device-side timer when it
// has one (CUDA events), else the wall clock around synchronize().
#pragma once

#include <functional>

#include "plugin/context.hpp"

namespace cae::bench {

struct TimingPolicy {
  int warmup = 3;
  int repeats = 20;
};

// Median milliseconds of `work` over policy.repeats runs after warm-up.
double median_ms(Context& context, const std::function<void()>& work, const TimingPolicy& policy);

// Milliseconds of one run of `work` (already warm).
double once_ms(Context& context, const std::function<void()>& work);

}  // namespace cae::bench
