// Programmatic dependent launch (compute capability 9.0 and later): a kernel
// launched with it may be scheduled while the kernel before it on the stream
// is finishing its last wave, so the gap between two dependent kernels (about
// 1.3 us each on an H200) overlaps that tail instead of
// following it. The kernel itself then waits, at its first instruction, until
// the previous kernel has completed and its writes are visible.
//
// The contract, for every kernel launched through launch_kernel:
//   - it calls begin_after_prior_kernels() before it reads or writes global
//     memory (reads of kernel parameters and shared-memory setup may precede);
//   - so it never sees a partial result, and never overwrites memory the
//     previous kernel still reads.
// Without the launch attribute (older GPUs, kernels compiled without the waits, or after a wait on
// another stream) the same kernels run fully ordered, and the two
// instructions do nothing.
#pragma once

#include <cuda_runtime.h>

#include <utility>

namespace cae_plugin {
namespace cuda {

// Waits until the kernels this one depends on have completed and their
// memory is visible, then lets the next kernel on the stream be scheduled
// (it waits for this one's completion in turn). Every thread calls it.
__device__ __forceinline__ void begin_after_prior_kernels() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// kernel<<<grid, block, shared_bytes, stream>>>(args...), with the
// programmatic-dependent-launch attribute when `programmatic`.
template <class... Parameters, class... Arguments>
cudaError_t launch_kernel(bool programmatic, cudaStream_t stream, void (*kernel)(Parameters...),
                          dim3 grid, dim3 block, size_t shared_bytes, Arguments&&... arguments) {
  cudaLaunchAttribute attribute = {};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = programmatic ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Arguments>(arguments)...);
}

}  // namespace cuda
}  // namespace cae_plugin
