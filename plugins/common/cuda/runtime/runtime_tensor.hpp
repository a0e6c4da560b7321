// The runtime's tensor (v3's and v4's): its storage order, its version, and the buffers derived
// from its contents that later ops may reuse.
//
// Storage order. Every 4-D tensor [N,C,H,W] is kept channels-last,
// [N][H][W][C] ("NHWC"): a convolution over the batch is then a GEMM whose
// rows are pixels and whose columns are channels, the GEMM writes NHWC output
// directly, and the gathers around it read and write whole channel vectors.
// Conv weights [O,C,K,K] follow the same rule, [O][K][K][C], which is exactly
// the forward GEMM's weight matrix W[o][tap * C + c]. Other ranks keep the
// boundary's row-major order; tensor_upload / tensor_download convert.
//
// Versions. Every write to a tensor (upload or op output) gives it a new,
// context-unique version. Buffers derived from a tensor (the max-pool choices
// of a pool input, rearranged conv weights, im2col columns) remember the
// version they were made from and are used only while it is current.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plugin_support.hpp"

namespace cae_cuda {

// Device memory derived from a tensor's contents (owned by the tensor).
struct DerivedBuffer {
  void* data = nullptr;
  size_t bytes = 0;
  uint64_t version = 0;  // the owner's version it was made from; 0: none
};

}  // namespace cae_cuda

struct cae_tensor_s {
  cae_plugin::Shape shape;
  float* data = nullptr;  // shape.count() floats of device memory, in storage order
  size_t bytes = 0;
  uint64_t version = 0;
  // As a max-pool input: which element of each 2x2 window is the max (see resample.cu).
  cae_cuda::DerivedBuffer pool_choice;
  // As conv weights: the form a convolution scheme multiplies when it is not
  // the stored one (tap-major, or rows padded; see plugins/common/cuda/tf32_conv/tf32_conv_steps.hpp).
  cae_cuda::DerivedBuffer prepared_weights;
};

namespace cae_cuda {

// True when the stored order differs from the boundary order. With C == 1 or
// H*W == 1, [N][C][HW] and [N][HW][C] are the same bytes: kernels may then
// treat the tensor as channels-last without asking.
inline bool stored_channels_last(const cae_plugin::Shape& s) {
  return s.ndim == 4 && s[1] > 1 && s[2] * s[3] > 1;
}

// Whether element-wise ops may pair two tensors of equal element count
// position by position: both in boundary order, or both channels-last with the
// same channel count and image size (hence the same permutation).
inline bool same_element_order(const cae_plugin::Shape& a, const cae_plugin::Shape& b) {
  const bool a_permuted = stored_channels_last(a), b_permuted = stored_channels_last(b);
  if (a_permuted != b_permuted) return false;
  return !a_permuted || (a[1] == b[1] && a[2] * a[3] == b[2] * b[3]);
}

}  // namespace cae_cuda
