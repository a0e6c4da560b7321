// Per-step losses stay on the device in a small ring of 1-element tensors and
// are read back in groups, so the host does not wait for the device every step.
#pragma once

#include <cstdint>
#include <vector>

#include "plugin/context.hpp"

namespace cae::nn {

class LossAccumulator {
 public:
  LossAccumulator(Context& context, size_t ring) {
    for (size_t i = 0; i < ring; ++i) slots_.push_back(context.alloc({1}));
  }
  // The slot for the next step's loss, the mean over `batch` images.
  Tensor& next_slot(int64_t batch) {
    if (pending_.size() == slots_.size()) drain();
    pending_.push_back(batch);
    return slots_[pending_.size() - 1];
  }
  // Reads every pending loss; returns sum(loss * batch) so far.
  double drain() {
    for (size_t i = 0; i < pending_.size(); ++i) {
      float value = 0;
      slots_[i].download(&value, 1);
      sum_ += double(value) * double(pending_[i]);
    }
    pending_.clear();
    return sum_;
  }
  void reset(double sum) {
    pending_.clear();
    sum_ = sum;
  }

 private:
  std::vector<Tensor> slots_;
  std::vector<int64_t> pending_;
  double sum_ = 0;
};

}  // namespace cae::nn
