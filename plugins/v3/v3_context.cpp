#include "v3_context.hpp"

#include <cstdio>

#include "v3_ops.hpp"

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

cae_context_s::cae_context_s(const cae_create_options* options)
    : CudaContextBase(options),
      tuning(cae_v3::Tuning::from_environment()),
      multiprocessors(multiprocessors_of(device)),
      programmatic_launch(tuning.programmatic_launch && cae_v3::kernels_wait_for_prior_kernels()),
      gemm_workspace(kGemmWorkspaceBytes, memory, "the cuBLASLt workspace"),
      gemm(stream, gemm_workspace.as<void>(), gemm_workspace.bytes(), tuning.verbose),
      counters(cae_v3::kCounterSlots * sizeof(uint32_t), memory, "reduction counters"),
      scratch(memory, stream),
      reduction_area(memory, stream),
      columns(memory, tuning.column_cache_bytes) {
  CAE_CUDA_CHECK(cudaMemsetAsync(counters.as<void>(), 0, counters.bytes(), stream));
  CAE_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (tuning.verbose) {
    std::fprintf(stderr, "[v3] device %d: programmatic dependent launch %s\n", device,
                 programmatic_launch           ? "on"
                 : !tuning.programmatic_launch ? "off (CAE_V3_PDL=0)"
                                               : "off (needs compute capability 9.0 and "
                                                 "kernels compiled for it)");
  }
}

cae_context_s::~cae_context_s() {
  // Queued work must finish before its memory goes.
  cudaSetDevice(device);
  cudaStreamSynchronize(stream);
  for (cae_tensor_s* t : tensors) {
    cae_v3::release_tensor_memory(*this, *t);
    delete t;
  }
  tensors.clear();
}

namespace cae_v3 {

void release_tensor_memory(Context& ctx, cae_tensor_s& t) noexcept {
  cae_plugin::cuda::device_free(t.data, t.bytes, ctx.memory);
  t.data = nullptr;
  release_derived(t.pool_choice, ctx.memory);
  release_derived(t.prepared_weights, ctx.memory);
}

}  // namespace cae_v3
