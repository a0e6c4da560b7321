#include "common_order.hpp"

#include "runtime_ops.hpp"

namespace cae_cuda {

CommonOrder::CommonOrder(Context& ctx, std::array<Operand, kMax> operands)
    : ctx_(ctx), operands_(operands) {
  const cae_tensor_s* first = nullptr;
  for (size_t i = 0; i < kMax; ++i) {
    cae_tensor_s* t = operands_[i].tensor;
    data_[i] = t ? t->data : nullptr;
    if (!t) continue;
    if (!first) first = t;
    in_place_ = in_place_ && same_element_order(first->shape, t->shape);
  }
  if (in_place_) return;
  ScratchLayout layout;
  std::array<size_t, kMax> at{};
  for (size_t i = 0; i < kMax; ++i) {
    const cae_tensor_s* t = operands_[i].tensor;
    staged_[i] = t && stored_channels_last(t->shape);
    if (staged_[i]) at[i] = layout.add(t->shape.count());
  }
  float* base = ctx_.scratch.get(layout.total());
  for (size_t i = 0; i < kMax; ++i) {
    if (!staged_[i]) continue;
    data_[i] = base + at[i];
    stored_to_boundary(ctx_, operands_[i].tensor->shape, operands_[i].tensor->data, data_[i]);
  }
}

void CommonOrder::write_back() {
  for (size_t i = 0; i < kMax; ++i) {
    if (staged_[i] && operands_[i].written) {
      boundary_to_stored(ctx_, operands_[i].tensor->shape, data_[i], operands_[i].tensor->data);
    }
  }
}

}  // namespace cae_cuda
