// The naive backend's context and tensor types: the state behind the ABI's
// opaque handles.
//
// Storage rule: every 4-D tensor keeps its dimension 1 LAST, so activations
// [N,C,H,W] live as NHWC and conv weights [O,C,K,K] as OHWI. Upload and
// download cannot tell an activation from a weight, so one rule for every
// 4-D tensor keeps them consistent. Tensors of other ranks stay row-major.
#pragma once

#include <cae/backend.h>

#include <memory>
#include <unordered_map>

#include "cuda_support.hpp"

struct cae_tensor_s {
  cae_plugin::Shape shape;  // the boundary shape (NCHW / OIHW / row-major)
  float* data = nullptr;    // device memory in the storage order described above

  size_t count() const { return static_cast<size_t>(shape.count()); }
  size_t bytes() const { return count() * sizeof(float); }
};

namespace naive {

// A device buffer an op needs for itself (staging, transposed weights,
// partial sums). Allocated on first use, reused, grown when too small.
struct DeviceScratch {
  float* data = nullptr;
  size_t capacity = 0;  // floats
};

}  // namespace naive

struct cae_context_s : cae_plugin::cuda::CudaContextBase {
  explicit cae_context_s(const cae_create_options* options) : CudaContextBase(options) {}
  // Frees every tensor still alive and all scratch memory.
  ~cae_context_s() override;

  cae_tensor_s* allocate_tensor(const cae_plugin::Shape& shape);
  void free_tensor(cae_tensor_s* tensor) noexcept;

  // The tensor behind a handle passed to `op` as argument `name`; rejects NULL
  // and handles that are not live tensors of this context.
  cae_tensor_s& tensor(cae_tensor handle, const char* op, const char* name) const;
  // Same, but NULL is allowed (optional arguments) and gives nullptr.
  cae_tensor_s* optional_tensor(cae_tensor handle, const char* op, const char* name) const;

  // At least `count` floats of `scratch`. Growing waits for the stream first,
  // since queued kernels may still use the old buffer.
  float* scratch_floats(naive::DeviceScratch& scratch, size_t count, const char* what);

  naive::DeviceScratch staging;        // layout conversion in upload/download
  naive::DeviceScratch conv_weights;   // weights re-laid out for conv2d_forward
  naive::DeviceScratch loss_partials;  // per-block partial sums of mse_loss

 private:
  void release_scratch(naive::DeviceScratch& scratch) noexcept;
  std::unordered_map<cae_tensor_s*, std::unique_ptr<cae_tensor_s>> live_tensors_;
};
