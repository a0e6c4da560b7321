#include "winograd_context.hpp"

#include "tensor_arguments.hpp"

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

cae_context_s::~cae_context_s() {
  // Let queued work finish before its memory goes.
  cudaSetDevice(device);
  cudaStreamSynchronize(stream);
  for (cae_tensor_s* t : tensors) {
    cae_plugin::cuda::device_free(t->data, t->bytes, memory);
    delete t;
  }
  tensors.clear();
}

namespace cae_winograd {

Context& context_arg(cae_context ctx, const char* op) {
  return cae_plugin::context_argument(ctx, op);
}

cae_tensor_s* optional_tensor_arg(const Context& ctx, cae_tensor t, const char* op,
                                  const char* name) {
  return cae_plugin::optional_tensor_argument(ctx, t, op, name);
}

cae_tensor_s& tensor_arg(const Context& ctx, cae_tensor t, const char* op, const char* name) {
  return *cae_plugin::tensor_argument(ctx, t, op, name);
}

}  // namespace cae_winograd
