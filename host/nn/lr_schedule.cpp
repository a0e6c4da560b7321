#include "nn/lr_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cae::nn {

LrSchedule parse_lr_schedule(const std::string& name) {
  if (name == "constant") return LrSchedule::Constant;
  if (name == "cosine") return LrSchedule::Cosine;
  if (name == "step") return LrSchedule::Step;
  throw std::invalid_argument("unknown learning-rate schedule '" + name +
                              "' (constant, cosine or step)");
}

const char* lr_schedule_name(LrSchedule schedule) {
  switch (schedule) {
    case LrSchedule::Constant:
      return "constant";
    case LrSchedule::Cosine:
      return "cosine";
    case LrSchedule::Step:
      return "step";
  }
  return "constant";
}

float scheduled_learning_rate(LrSchedule schedule, float base, int64_t step, int64_t steps) {
  if (schedule == LrSchedule::Constant || steps <= 1) return base;
  // The position of the step in the run, in [0, 1): no step is wasted at rate 0.
  const double at = double(std::clamp<int64_t>(step, 0, steps - 1)) / double(steps);
  if (schedule == LrSchedule::Cosine) {
    const double pi = std::acos(-1.0);
    return float(double(base) * 0.5 * (1.0 + std::cos(pi * at)));
  }
  // Step: milestones at the steps that start the run's second half and last quarter.
  const int64_t s = std::clamp<int64_t>(step, 0, steps - 1);
  if (s >= steps - steps / 4) return base / 100.0f;
  if (s >= steps - steps / 2) return base / 10.0f;
  return base;
}

}  // namespace cae::nn
