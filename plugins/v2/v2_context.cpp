#include "v2_context.hpp"

#include <string>

#include "cublas_check.hpp"

namespace cae_v2 {

namespace {
// cuBLAS's recommended workspace for Hopper. Owning it (instead of cuBLAS's
// default pool) keeps the kernels cuBLAS picks, and thus the bits, fixed.
constexpr size_t kBlasWorkspaceFloats = (size_t(32) << 20) / sizeof(float);
}  // namespace

BlasHandle::BlasHandle(cudaStream_t stream, const DeviceBuffer& workspace) {
  CAE_CUBLAS_CHECK(cublasCreate(&handle_));
  try {
    CAE_CUBLAS_CHECK(cublasSetStream(handle_, stream));
    // After cublasSetStream, which resets the workspace to the default pool.
    CAE_CUBLAS_CHECK(cublasSetWorkspace(handle_, workspace.data(), workspace.bytes()));
    // We declare FP32 and promise 1e-4: no TF32 (nor any other reduced or
    // emulated precision) tensor-op math.
    CAE_CUBLAS_CHECK(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH));
    CAE_CUBLAS_CHECK(cublasSetPointerMode(handle_, CUBLAS_POINTER_MODE_HOST));
    // Deterministic: no atomics in the kernels cuBLAS chooses.
    CAE_CUBLAS_CHECK(cublasSetAtomicsMode(handle_, CUBLAS_ATOMICS_NOT_ALLOWED));
  } catch (...) {
    cublasDestroy(handle_);
    throw;
  }
}

BlasHandle::~BlasHandle() {
  if (handle_) cublasDestroy(handle_);
}

}  // namespace cae_v2

cae_context_s::cae_context_s(const cae_create_options* options)
    : CudaContextBase(options),
      blas_workspace(cae_v2::kBlasWorkspaceFloats, memory, "the cuBLAS workspace"),
      blas(stream, blas_workspace),
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

// The messages are built only on failure: these checks run on every op.
Context& context_arg(cae_context ctx, const char* op) {
  if (ctx == nullptr)
    cae_plugin::fail(CAE_STATUS_INVALID_ARGUMENT, std::string(op) + ": context is NULL");
  return *ctx;
}

cae_tensor_s* optional_tensor_arg(const Context& ctx, cae_tensor t, const char* op,
                                  const char* name) {
  if (t != nullptr && ctx.tensors.count(t) == 0) {
    cae_plugin::fail(CAE_STATUS_INVALID_ARGUMENT,
                     std::string(op) + ": tensor " + name + " does not belong to this context");
  }
  return t;
}

cae_tensor_s& tensor_arg(const Context& ctx, cae_tensor t, const char* op, const char* name) {
  if (t == nullptr) {
    cae_plugin::fail(CAE_STATUS_INVALID_ARGUMENT,
                     std::string(op) + ": tensor " + name + " is NULL");
  }
  return *optional_tensor_arg(ctx, t, op, name);
}

}  // namespace cae_v2
