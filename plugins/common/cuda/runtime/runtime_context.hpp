// The context of the runtime v3 and v4 share: the common CUDA state (device, stream, timer, memory
// accounting), cuBLASLt, scratch areas, caches, deferred work and the live
// tensors.
#pragma once

#include <unordered_set>

#include "column_cache.hpp"
#include "cuda_support.hpp"
#include "deferred_work.hpp"
#include "device_memory.hpp"
#include "host_staging.hpp"
#include "lt_gemm.hpp"
#include "runtime_tensor.hpp"
#include "runtime_tuning.hpp"
#include "side_stream.hpp"

struct cae_context_s : cae_plugin::cuda::CudaContextBase {
  // `tuning`: the precision settings (v4's options; v3 takes the defaults).
  explicit cae_context_s(const cae_create_options* options,
                         const cae_cuda::Tuning& tuning = cae_cuda::Tuning{});
  ~cae_context_s() override;

  // Gives t a new version: its contents changed (see runtime_tensor.hpp).
  void wrote(cae_tensor_s& t) { t.version = ++versions; }
  void wrote(cae_tensor_s* t) {
    if (t) wrote(*t);
  }

  cae_cuda::Tuning tuning;
  int multiprocessors = 0;
  // Kernels may be scheduled during the previous kernel's last wave
  // (programmatic_launch.cuh): the device supports it and the kernels were
  // compiled with the waits it relies on.
  bool programmatic_launch = false;
  uint64_t versions = 0;
  // While a v4 graph runs one of its optimiser nodes: the device address of
  // that node's learning rate and Adam bias corrections, written before each
  // run, which the update kernels read instead of the values in their
  // arguments, so that a captured graph replays with each run's values
  // (plugins/v4/v4_graph.cpp). NULL everywhere else.
  const float* run_scalars = nullptr;
  // Declaration order matters for destruction: cuBLASLt before its workspace.
  cae_cuda::DeviceMemory gemm_workspace;
  cae_cuda::LtGemm gemm;
  cae_cuda::DeviceMemory counters;   // zeroed; each single-pass reduction's "blocks done"
  cae_cuda::Scratch scratch;         // temporaries of one op
  cae_cuda::Scratch reduction_area;  // partial sums of reductions issued inside an op
  cae_cuda::ColumnCache columns;
  cae_cuda::HostStaging staging;
  cae_cuda::Deferred deferred;
  cae_cuda::SideStream side;  // v4: a convolution's data and weight gradients side by side
  std::unordered_set<cae_tensor_s*> tensors;
};

namespace cae_cuda {

using Context = cae_context_s;

// Counters in Context::counters, one per kind of single-pass reduction.
enum Counter : int { kMseCounter = 0, kColumnSumCounter = 1, kCounterSlots = 4 };

// Frees a tensor's memory and derived buffers (not the handle).
void release_tensor_memory(Context& ctx, cae_tensor_s& t) noexcept;

}  // namespace cae_cuda
