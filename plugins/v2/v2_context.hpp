// The v2 context: the common CUDA state (device, stream, timer, memory
// accounting) plus a cuBLAS handle, the workspace and the live tensors.
#pragma once

#include <cublas_v2.h>

#include <unordered_set>

#include "cublas_support.hpp"
#include "cuda_support.hpp"
#include "v2_tensor.hpp"
#include "v2_upload_staging.hpp"
#include "v2_workspace.hpp"

namespace cae_v2 {

// Owns a device buffer that is accounted in a context's MemoryTracker.
class DeviceBuffer {
 public:
  DeviceBuffer(size_t floats, cae_plugin::cuda::MemoryTracker& tracker, const char* what)
      : tracker_(tracker),
        floats_(floats),
        data_(cae_plugin::cuda::device_alloc_floats(floats, tracker, what)) {}
  ~DeviceBuffer() { cae_plugin::cuda::device_free(data_, floats_ * sizeof(float), tracker_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  float* data() const { return data_; }
  size_t bytes() const { return floats_ * sizeof(float); }

 private:
  cae_plugin::cuda::MemoryTracker& tracker_;
  size_t floats_;
  float* data_;
};

// Partial sums of the two-pass reductions (row sums, mse): 2048 floats hold
// every split the reductions choose (see v2_row_sums.cu and v2_loss.cu).
constexpr size_t kReductionPartialFloats = 2048;

}  // namespace cae_v2

struct cae_context_s : cae_plugin::cuda::CudaContextBase {
  explicit cae_context_s(const cae_create_options* options);
  ~cae_context_s() override;

  // Members are destroyed in reverse order: the cuBLAS handle before the
  // workspace it was given.
  cae_v2::DeviceBuffer blas_workspace;
  cae_plugin::cuda::BlasHandle blas;  // FP32 only, no atomics
  cae_v2::DeviceBuffer reduction_partials;
  cae_v2::Workspace workspace;
  cae_v2::UploadStaging upload_staging;
  std::unordered_set<cae_tensor_s*> tensors;
};

namespace cae_v2 {

using Context = cae_context_s;

}  // namespace cae_v2
