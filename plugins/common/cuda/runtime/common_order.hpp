// Element-wise ops with several operands (mse_loss, sgd_step, adam_step) pair
// elements by their boundary (NCHW) index and accept operands of equal COUNT,
// not equal shape. Normally the operands share one storage order and are used
// in place. When they do not (a channels-last 4-D tensor next to a 2-D one of
// the same count), the channels-last ones are staged in boundary order in the
// scratch area for the op, and those it writes are converted back after it.
#pragma once

#include <array>
#include <cstddef>

#include "runtime_context.hpp"

namespace cae_cuda {

class CommonOrder {
 public:
  struct Operand {
    cae_tensor_s* tensor;  // may be nullptr (an optional argument not given)
    bool written;
  };
  static constexpr size_t kMax = 4;

  CommonOrder(Context& ctx, std::array<Operand, kMax> operands);
  CommonOrder(const CommonOrder&) = delete;
  CommonOrder& operator=(const CommonOrder&) = delete;

  // True when nothing had to be staged.
  bool in_place() const { return in_place_; }
  float* data(size_t i) const { return data_[i]; }
  // Converts the staged operands the op wrote back into their tensors.
  void write_back();

 private:
  Context& ctx_;
  std::array<Operand, kMax> operands_;
  std::array<float*, kMax> data_{};
  std::array<bool, kMax> staged_{};
  bool in_place_ = true;
};

}  // namespace cae_cuda
