// SIGINT / SIGTERM during long work: the handler only sets a flag; the
// training loop checks it between steps, saves a resumable checkpoint and
// says how to resume.
#pragma once

namespace cae::nn {

class InterruptGuard {
 public:
  InterruptGuard();   // installs the handlers
  ~InterruptGuard();  // restores the previous ones
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  static bool requested();
  static int signal_number();  // which signal arrived (0 if none)
};

}  // namespace cae::nn
