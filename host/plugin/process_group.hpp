// One context in each of several processes (one process per GPU, on one host
// or several) summing tensors across the processes: the data-parallel
// exchange of `cae train --world-size W` (docs/distributed.md). Two kinds:
// the backend's ABI 1.2 members (NCCL on the CUDA backends) and, for a
// backend without them, a host fallback through files (file_process_group).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "plugin/context.hpp"

namespace cae {

class ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;

  int32_t rank() const { return rank_; }
  int32_t world() const { return world_; }
  // True for the backend's collectives, false for the host's fallback.
  virtual bool backend_collectives() const = 0;

  // tensors[i] = scale * (sum over ranks k of rank k's tensors[i]), in place,
  // on every rank: one fused exchange for the whole list. Every rank calls it
  // in the same order with the same shapes; every rank gets the same values.
  virtual void all_reduce_sum(const std::vector<Tensor*>& tensors, float scale) = 0;

 protected:
  ProcessGroup(int32_t rank, int32_t world) : rank_(rank), world_(world) {}

 private:
  int32_t rank_, world_;
};

// "0.1 s", "300 s": a timeout as messages show it.
inline std::string seconds_text(std::chrono::milliseconds timeout) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", double(timeout.count()) / 1000.0);
  return text;
}

}  // namespace cae
