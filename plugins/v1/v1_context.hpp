// The v1 context and tensor types behind the ABI's opaque handles.
//
// Tensors keep the boundary layout (NCHW / OIHW / row-major) on the device, so
// upload and download are plain copies. The context owns every live tensor (so
// destroy can free them) and the scratch buffers of the multi-pass reductions,
// which are allocated once and only grow: a training step in steady state
// performs no cudaMalloc.
#pragma once

#include <cstddef>
#include <unordered_set>

#include "cuda_support.hpp"
#include "v1_scratch.hpp"

struct cae_tensor_s {
  cae_plugin::Shape shape;
  float* data = nullptr;  // device memory, shape.count() floats
  size_t count = 0;
};

struct cae_context_s : cae_plugin::cuda::CudaContextBase {
  explicit cae_context_s(const cae_create_options* options);
  ~cae_context_s() override;

  cae_tensor allocate_tensor(const cae_plugin::Shape& shape);
  void free_tensor(cae_tensor tensor) noexcept;

  // Throws INVALID_ARGUMENT naming `op` and `name` unless `tensor` is a live
  // tensor of this context.
  cae_tensor_s& tensor(cae_tensor tensor, const char* op, const char* name) const;

  int multiprocessor_count = 1;  // sizes the split of the large reductions

  // Per-block partial results of the multi-pass reductions.
  v1::ScratchBuffer weight_grad_partials;  // conv2d_backward: dw split over the batch
  v1::ScratchBuffer bias_grad_partials;    // conv2d_backward: db split over the batch
  v1::ScratchBuffer loss_partials;         // mse_loss
  v1::ScratchBuffer row_norms;             // kernel_matrix (RBF): ||x_i||^2 then ||y_j||^2

 private:
  std::unordered_set<cae_tensor> tensors_;
};
