#include "winograd_context.hpp"

#include "cuda_tensor_entries.hpp"

namespace cae_winograd {

namespace {
// cuBLAS's recommended workspace for Hopper. Owning it (instead of cuBLAS's
// default pool) keeps the kernels cuBLAS picks, and thus the bits, fixed.
constexpr size_t kBlasWorkspaceFloats = (size_t(32) << 20) / sizeof(float);
}  // namespace

}  // namespace cae_winograd

cae_context_s::cae_context_s(const cae_create_options* options,
                             const cae_winograd::LaunchOverride& launch)
    : CudaContextBase(options),
      blas_workspace(memory, "the cuBLAS workspace"),
      blas(stream, blas_workspace.reserve(cae_winograd::kBlasWorkspaceFloats),
           cae_winograd::kBlasWorkspaceFloats * sizeof(float)),
      reduction_partials(memory, "reduction partial sums"),
      workspace(memory, "the Winograd workspace"),
      filters(memory),
      flipped_filters(memory),
      launch_override(launch) {
  reduction_partials.reserve(cae_winograd::kReductionBlocks);
}

cae_context_s::~cae_context_s() { cae_plugin::cuda::free_live_tensors(*this); }
