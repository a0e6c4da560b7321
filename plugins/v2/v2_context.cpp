#include "v2_context.hpp"

#include "cuda_tensor_entries.hpp"

namespace cae_v2 {

namespace {
// cuBLAS's recommended workspace for Hopper. Owning it (instead of cuBLAS's
// default pool) keeps the kernels cuBLAS picks, and thus the bits, fixed.
constexpr size_t kBlasWorkspaceFloats = (size_t(32) << 20) / sizeof(float);
}  // namespace

}  // namespace cae_v2

cae_context_s::cae_context_s(const cae_create_options* options)
    : CudaContextBase(options),
      blas_workspace(cae_v2::kBlasWorkspaceFloats, memory, "the cuBLAS workspace"),
      blas(stream, blas_workspace.data(), blas_workspace.bytes()),
      reduction_partials(cae_v2::kReductionPartialFloats, memory, "reduction partial sums"),
      workspace(memory, stream) {}

cae_context_s::~cae_context_s() { cae_plugin::cuda::free_live_tensors(*this); }
