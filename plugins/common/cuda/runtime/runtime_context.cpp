#include "runtime_context.hpp"


#include "runtime_ops.hpp"

namespace {

// cuBLASLt's recommended workspace for Hopper. Owning it keeps the kernels
// cuBLASLt picks (and thus the bits) independent of any shared pool.
constexpr size_t kGemmWorkspaceBytes = size_t(32) << 20;

int multiprocessors_of(int device) {
  int count = 0;
  CAE_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

}  // namespace

cae_context_s::cae_context_s(const cae_create_options* options, const cae_cuda::Tuning& chosen)
    : CudaContextBase(options),
      tuning(chosen),
      multiprocessors(multiprocessors_of(device)),
      programmatic_launch(cae_cuda::kernels_wait_for_prior_kernels()),
      gemm_workspace(kGemmWorkspaceBytes, memory, "the cuBLASLt workspace"),
      gemm(stream, gemm_workspace.as<void>(), gemm_workspace.bytes()),
      counters(cae_cuda::kCounterSlots * sizeof(uint32_t), memory, "reduction counters"),
      scratch(memory, stream, tuning.poison_scratch),
      reduction_area(memory, stream, tuning.poison_scratch),
      columns(memory, cae_cuda::kColumnCacheBytes),
      staging(memory) {
  CAE_CUDA_CHECK(cudaMemsetAsync(counters.as<void>(), 0, counters.bytes(), stream));
  CAE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

cae_context_s::~cae_context_s() {
  // Queued work must finish before its memory goes.
  cudaSetDevice(device);
  cudaStreamSynchronize(stream);
  for (cae_tensor_s* t : tensors) {
    cae_cuda::release_tensor_memory(*this, *t);
    delete t;
  }
  tensors.clear();
}

namespace cae_cuda {

void release_tensor_memory(Context& ctx, cae_tensor_s& t) noexcept {
  cae_plugin::cuda::device_free(t.data, t.bytes, ctx.memory);
  t.data = nullptr;
  release_derived(t.pool_choice, ctx.memory);
  release_derived(t.prepared_weights, ctx.memory);
}

}  // namespace cae_cuda
