// `cae bench --devices LIST`: what data-parallel training gains over one
// device. In one run: an epoch on the first device alone at the per-device
// batch (global batch / N), the same epoch over all N devices at the global
// batch (ModelReplicas: shards, fused gradient exchange, N optimiser steps),
// and the fused gradient exchange alone, so the speed-up, the exchange's share
// of a step and the bytes it moves come from the same process and GPUs.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <vector>

#include "bench/model_benchmark.hpp"
#include "plugin/context.hpp"

namespace cae::bench {

struct DataParallelResult {
  int devices = 0;
  int global_batch = 0;
  int64_t images = 0;
  double single_seconds = 0;    // first device alone, batch global_batch / devices
  double parallel_seconds = 0;  // all devices, global batch
  double speedup = 0;           // single_seconds / parallel_seconds
  double exchange_ms = 0;       // median of one fused gradient all-reduce
  int64_t steps = 0;            // optimiser steps of the parallel epoch
  // Of those, the steps whose exchange ran inside each device's step graph
  // (ABI 1.6; the others: the fused exchange after the backward pass).
  int64_t steps_exchanged_in_graph = 0;
  uint64_t gradient_bytes = 0;  // the fused exchange's payload per device
  // What a ring all-reduce sends (and receives) per device: 2 (N-1)/N x payload.
  double ring_bytes_per_device = 0;
  bool backend_collectives = false;  // false: the host exchange
};

// settings.batch is the global batch; it must be a multiple of contexts.size()
// (throws std::invalid_argument otherwise). Needs at least two contexts.
DataParallelResult run_data_parallel_benchmark(const std::vector<Context*>& contexts,
                                               const BenchSettings& settings, std::ostream& log);

}  // namespace cae::bench
