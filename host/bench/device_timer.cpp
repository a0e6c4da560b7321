#include "device_timer.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

namespace cae::bench {

double once_ms(Context& context, const std::function<void()>& work) {
  if (context.has_timer()) {
    context.timer_start();
    work();
    return context.timer_stop_ms();
  }
  context.synchronize();
  auto start = std::chrono::steady_clock::now();
  work();
  context.synchronize();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

double median_ms(Context& context, const std::function<void()>& work, const TimingPolicy& policy) {
  for (int i = 0; i < policy.warmup; ++i) work();
  context.synchronize();
  std::vector<double> samples;
  for (int i = 0; i < policy.repeats; ++i) samples.push_back(once_ms(context, work));
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

}  // namespace cae::bench
