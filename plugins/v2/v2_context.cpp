#include "v2_context.hpp"

#include "tensor_arguments.hpp"

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

namespace cae_v2 {

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

}  // namespace cae_v2
