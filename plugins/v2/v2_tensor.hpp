// The v2 tensor and the order in which it stores its elements.
//
// Every 4-D tensor [N,C,H,W] is stored channel-major, as [C][N][H*W] ("CNHW"):
// each channel of the whole batch is then one contiguous row of N*H*W pixels,
// so that a convolution over the batch is ONE large GEMM
// (Y[O][NHW] = W[O][CKK] x columns[CKK][NHW]). Conv weights [O,C,K,K] follow
// the same rule and are stored [C][O][K*K]. Tensors of other ranks keep the
// boundary's row-major order. tensor_upload / tensor_download convert.
#pragma once

#include <cstddef>

#include "plugin_support.hpp"

struct cae_tensor_s {
  cae_plugin::Shape shape;
  float* data = nullptr;  // device memory, shape.count() floats
  size_t bytes = 0;
};

namespace cae_v2 {

// True when the stored order differs from the boundary order. With N == 1 or
// C == 1, [C][N][HW] and [N][C][HW] are the same bytes, so the kernels may
// treat every 4-D tensor as channel-major without asking.
inline bool stored_channel_major(const cae_plugin::Shape& s) {
  return s.ndim == 4 && s[0] > 1 && s[1] > 1;
}

// Whether two tensors of equal element count store element i (boundary order)
// at the same offset, so that element-wise ops may pair them in place.
inline bool same_storage_order(const cae_plugin::Shape& a, const cae_plugin::Shape& b) {
  const bool a_permuted = stored_channel_major(a), b_permuted = stored_channel_major(b);
  if (a_permuted != b_permuted) return false;
  // Equal counts with equal N and C imply equal H*W: the same permutation.
  return !a_permuted || (a[0] == b[0] && a[1] == b[1]);
}

}  // namespace cae_v2
