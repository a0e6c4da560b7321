// Work that the runtime (v3, v4) queues for a moment instead of issuing at once, so that it can
// be merged with the call that follows:
//   - maxpool2x2_backward / upsample2x_backward, followed by an in-place
//     relu_backward on their output: one kernel writes the masked gradient,
//     instead of one writing it and another reading and rewriting it;
//   - consecutive adam_step calls: one multi-tensor kernel.
// Every other entry point first issues whatever is queued (flush), so results
// and their order are exactly those of immediate execution; only a launch
// error may surface one call later, which the ABI allows for asynchronous ops.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "plugin_support.hpp"

struct cae_tensor_s;

namespace cae_cuda {

struct PendingResampleBackward {
  enum class Kind { none, maxpool, upsample } kind = Kind::none;
  cae_tensor_s* x = nullptr;   // maxpool: the pool's input (large)
  cae_tensor_s* dy = nullptr;  // the incoming gradient
  cae_tensor_s* dx = nullptr;  // the gradient it writes
};

struct AdamTensor {
  float* param;
  const float* grad;
  float* m;
  float* v;
  int64_t count;
  float learning_rate, beta1, beta2, epsilon, weight_decay;
  float bias_correction1, bias_correction2;  // 1 - beta^step
  // When not NULL, the kernel reads learning_rate, bias_correction1 and
  // bias_correction2 from these three floats of device memory instead: a
  // captured graph replays with each run's values (plugins/v4/v4_graph.cpp).
  const float* run_scalars;
};

// 1 - beta^step as every Adam step of the runtime computes it (in double,
// rounded once), the same on the op path and in a graph's scalars.
inline float adam_bias_correction(float beta, int32_t step) {
  return static_cast<float>(1.0 - std::pow(double(beta), step));
}

constexpr int kMaxBatchedAdam = 16;

struct Deferred {
  PendingResampleBackward resample;
  std::vector<AdamTensor> adam;
  bool empty() const {
    return resample.kind == PendingResampleBackward::Kind::none && adam.empty();
  }
};

}  // namespace cae_cuda
