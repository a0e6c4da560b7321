// Learning-rate schedules over a whole training run (longer schedules only
// pay when the rate decays at the end). The rate of a step is
// a pure function of (step, steps in the run), so an interrupted run resumes
// on the same curve and every device or process of a data-parallel run uses
// the same rate without exchanging it.
#pragma once

#include <cstdint>
#include <string>

namespace cae::nn {

enum class LrSchedule {
  Constant,  // the base rate throughout (the seed's and the default)
  Cosine,    // base * (1 + cos(pi * step / steps)) / 2: from the base rate to 0
  Step,      // base, then base / 10 from half the run, base / 100 from three quarters
};

// "constant", "cosine", "step"; throws std::invalid_argument otherwise.
LrSchedule parse_lr_schedule(const std::string& name);
const char* lr_schedule_name(LrSchedule schedule);

// The rate of the step numbered `step` (0-based) of a run of `steps` steps.
// Steps past the end keep the last step's rate.
float scheduled_learning_rate(LrSchedule schedule, float base, int64_t step, int64_t steps);

}  // namespace cae::nn
