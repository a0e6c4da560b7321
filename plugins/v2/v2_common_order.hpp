// Element-wise ops with several operands (mse_loss, sgd_step, adam_step) pair
// elements by their boundary (NCHW) index and accept operands of equal COUNT,
// not equal shape. Operands normally share one stored order and are used in
// place. When they do not - a channel-major 4-D tensor next to a 2-D one of
// the same count - the channel-major ones are staged in boundary order in the
// workspace for the op, and those the op writes are copied back afterwards.
#pragma once

#include <array>
#include <cstddef>

#include "v2_context.hpp"

namespace cae_v2 {

enum class Access { read, write, read_write };

struct Operand {
  cae_tensor_s* tensor;  // may be nullptr (an optional argument not given)
  Access access;
};

class CommonOrder {
 public:
  static constexpr size_t kMaxOperands = 4;

  // Stages the operands if their orders differ (reads are converted here).
  CommonOrder(Context& ctx, std::array<Operand, kMaxOperands> operands, size_t count);
  CommonOrder(const CommonOrder&) = delete;
  CommonOrder& operator=(const CommonOrder&) = delete;

  // The device pointer the op uses for operand i (nullptr for a NULL tensor).
  float* data(size_t i) const { return data_[i]; }

  // Copies staged operands the op wrote back into their tensors. Call after the op.
  void write_back();

 private:
  Context& ctx_;
  std::array<Operand, kMaxOperands> operands_;
  std::array<float*, kMaxOperands> data_{};
  std::array<bool, kMaxOperands> staged_{};
  size_t count_;
};

}  // namespace cae_v2
