// CUDA support shared by the CUDA backends (naive, v1, v2, ...): checked calls
// that become cae statuses naming the call, probing, tracked device memory,
// and the context state every CUDA backend has (device, stream, timer).
//
// Plugins only; compiled by nvcc or by the host C++ compiler with the CUDA
// runtime headers on the include path.
#pragma once

#include <cuda_runtime.h>

#include "pinned_host_memory.hpp"
#include "plugin_support.hpp"

namespace cae_plugin {
namespace cuda {

// Throws cae_plugin::Error naming `call` when err != cudaSuccess:
// CAE_STATUS_OUT_OF_MEMORY for cudaErrorMemoryAllocation, else DEVICE_ERROR.
void check(cudaError_t err, const char* call, const char* file, int line);

#define CAE_CUDA_CHECK(call) ::cae_plugin::cuda::check((call), #call, __FILE__, __LINE__)
// After a kernel launch: reports launch-configuration errors at once.
#define CAE_CUDA_CHECK_LAUNCH(kernel_name) \
  ::cae_plugin::cuda::check(cudaGetLastError(), "launch of " kernel_name, __FILE__, __LINE__)

// Fills a probe result: available when at least one device answers, else
// unavailable with CUDA's own error string (no driver, no device, ...).
void probe(cae_probe_result* out, int32_t priority);
// The same, and unavailable unless some device has compute capability
// major.minor exactly (a backend built for one architecture, e.g. sm_90a).
void probe_capability(cae_probe_result* out, int32_t priority, int major, int minor,
                      const char* built_for);
// Throws CAE_STATUS_UNSUPPORTED, naming what the backend is built for and what
// the device is, unless `device` has compute capability major.minor exactly:
// the probe passes when any device fits, create checks the one it was given.
void require_capability(int device, int major, int minor, const char* built_for);

// Device memory accounting of one context (memory_stats).
struct MemoryTracker {
  uint64_t in_use = 0;
  uint64_t peak = 0;
};

// cudaMalloc that throws CAE_STATUS_OUT_OF_MEMORY naming `what` and the size.
float* device_alloc_floats(size_t count, MemoryTracker& tracker, const char* what);
void device_free(void* ptr, size_t bytes, MemoryTracker& tracker) noexcept;

// State every CUDA context carries. A backend's context derives from it.
struct CudaContextBase : ContextBase {
  int device = 0;
  cudaStream_t stream = nullptr;
  cudaEvent_t timer_begin = nullptr;
  cudaEvent_t timer_end = nullptr;
  bool timer_running = false;
  MemoryTracker memory;
  PinnedHostMemory host_memory;  // ABI 1.3 host_alloc; freed with the context

  // Selects the device (validating the index) and creates stream and events.
  explicit CudaContextBase(const cae_create_options* options);
  ~CudaContextBase() override;
  CudaContextBase(const CudaContextBase&) = delete;
  CudaContextBase& operator=(const CudaContextBase&) = delete;

  // Makes this context's device current on the calling thread (contexts on
  // different devices may be used from different threads).
  void activate() const;
  void fill_device_info(cae_device_info* out, cae_precision precision, bool deterministic) const;
  void synchronize() const;
  void start_timer();
  double stop_timer();
  void memory_stats(uint64_t* in_use, uint64_t* peak) const;

 private:
  void initialize(const cae_create_options* options);
  void release() noexcept;
};

// Blocks for a 1-D grid of `n` elements: ceil(n / threads), capped at the
// grid's x limit (kernels use grid-stride loops beyond it).
unsigned grid_for(int64_t n, unsigned threads);

}  // namespace cuda
}  // namespace cae_plugin
