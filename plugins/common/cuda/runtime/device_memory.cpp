#include "device_memory.hpp"

#include "runtime_tensor.hpp"

namespace cae_cuda {

void* derived_storage(DerivedBuffer& buffer, size_t bytes, cae_plugin::cuda::MemoryTracker& tracker,
                      const char* what, bool* allocated) {
  if (allocated) *allocated = false;
  if (buffer.data && buffer.bytes >= bytes) return buffer.data;
  release_derived(buffer, tracker);  // cudaFree waits for kernels still reading it
  const size_t floats = (bytes + sizeof(float) - 1) / sizeof(float);
  buffer.data = cae_plugin::cuda::device_alloc_floats(floats, tracker, what);
  buffer.bytes = floats * sizeof(float);
  if (allocated) *allocated = true;
  return buffer.data;
}

void release_derived(DerivedBuffer& buffer, cae_plugin::cuda::MemoryTracker& tracker) noexcept {
  cae_plugin::cuda::device_free(buffer.data, buffer.bytes, tracker);
  buffer.data = nullptr;
  buffer.bytes = 0;
  buffer.version = 0;
}

}  // namespace cae_cuda
