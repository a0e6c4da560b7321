#include "v2_common_order.hpp"

#include "v2_ops.hpp"

namespace cae_v2 {

CommonOrder::CommonOrder(Context& ctx, std::array<Operand, kMaxOperands> operands, size_t count)
    : ctx_(ctx), operands_(operands), count_(count) {
  const cae_tensor_s* first = nullptr;
  bool all_same = true;
  for (size_t i = 0; i < count_; ++i) {
    const cae_tensor_s* t = operands_[i].tensor;
    data_[i] = t ? t->data : nullptr;
    if (!t) continue;
    if (!first) first = t;
    all_same = all_same && same_storage_order(first->shape, t->shape);
  }
  if (all_same) return;  // the usual case: in place

  // Boundary order is the common order: only channel-major operands move.
  ScratchPlan plan;
  std::array<size_t, kMaxOperands> offsets{};
  for (size_t i = 0; i < count_; ++i) {
    const cae_tensor_s* t = operands_[i].tensor;
    staged_[i] = t && stored_channel_major(t->shape);
    if (staged_[i]) offsets[i] = plan.take(static_cast<size_t>(t->shape.count()));
  }
  float* base = ctx_.workspace.reserve(plan.total_floats());
  for (size_t i = 0; i < count_; ++i) {
    if (!staged_[i]) continue;
    data_[i] = base + offsets[i];
    if (operands_[i].access != Access::write) {
      stored_to_boundary(ctx_, operands_[i].tensor->shape, operands_[i].tensor->data, data_[i]);
    }
  }
}

void CommonOrder::write_back() {
  for (size_t i = 0; i < count_; ++i) {
    if (staged_[i] && operands_[i].access != Access::read) {
      boundary_to_stored(ctx_, operands_[i].tensor->shape, data_[i], operands_[i].tensor->data);
    }
  }
}

}  // namespace cae_v2
