// The v3 context: the common CUDA state (device, stream, timer, memory
// accounting), cuBLASLt, scratch areas, caches, deferred work and the live
// tensors.
#pragma once

#include <unordered_set>

#include "cuda_support.hpp"
#include "v3_column_cache.hpp"
#include "v3_deferred.hpp"
#include "v3_device_memory.hpp"
#include "v3_gemm.hpp"
#include "v3_host_staging.hpp"
#include "v3_side_stream.hpp"
#include "v3_tensor.hpp"
#include "v3_tuning.hpp"

struct cae_context_s : cae_plugin::cuda::CudaContextBase {
  // `tuning`: the precision settings (v4's options; v3 takes the defaults).
  explicit cae_context_s(const cae_create_options* options,
                         const cae_v3::Tuning& tuning = cae_v3::Tuning{});
  ~cae_context_s() override;

  // Gives t a new version: its contents changed (see v3_tensor.hpp).
  void wrote(cae_tensor_s& t) { t.version = ++versions; }
  void wrote(cae_tensor_s* t) {
    if (t) wrote(*t);
  }

  cae_v3::Tuning tuning;
  int multiprocessors = 0;
  // Kernels may be scheduled during the previous kernel's last wave
  // (programmatic_launch.cuh): the device supports it and the kernels were
  // compiled with the waits it relies on.
  bool programmatic_launch = false;
  uint64_t versions = 0;
  // Declaration order matters for destruction: cuBLASLt before its workspace.
  cae_v3::DeviceMemory gemm_workspace;
  cae_v3::LtGemm gemm;
  cae_v3::DeviceMemory counters;   // zeroed; each single-pass reduction's "blocks done"
  cae_v3::Scratch scratch;         // temporaries of one op
  cae_v3::Scratch reduction_area;  // partial sums of reductions issued inside an op
  cae_v3::ColumnCache columns;
  cae_v3::HostStaging staging;
  cae_v3::Deferred deferred;
  cae_v3::SideStream side;  // v4: a convolution's data and weight gradients side by side
  std::unordered_set<cae_tensor_s*> tensors;
};

namespace cae_v3 {

using Context = cae_context_s;

// Counters in Context::counters, one per kind of single-pass reduction.
enum Counter : int { kMseCounter = 0, kColumnSumCounter = 1, kCounterSlots = 4 };

// Frees a tensor's memory and derived buffers (not the handle).
void release_tensor_memory(Context& ctx, cae_tensor_s& t) noexcept;

}  // namespace cae_v3
