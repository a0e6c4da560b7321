// Swapping the two leading dimensions of a [A][B][inner] array: the NCHW <->
// CNHW conversion of activations ([N][C][HW] <-> [C][N][HW]) and the weight
// transposes of the convolution ([C][O][KK] <-> [O][C][KK]).
#pragma once

#include <cstdint>

#include "v2_vector_access.cuh"

namespace cae_v2 {

// out[b][a][r] = in[a][b][r] for in [outer_a][outer_b][inner]. Items walk the
// OUTPUT in order (coalesced writes; reads are contiguous runs of `inner`).
struct SwapLeadingDims {
  const float* in;
  float* out;
  int64_t outer_a, outer_b, inner;

  __host__ __device__ bool by_quads() const { return inner % 4 == 0; }
  int64_t largest_offset() const { return outer_a * outer_b * inner; }
  int64_t work_items() const { return largest_offset() / (by_quads() ? 4 : 1); }

  template <class I>
  __host__ __device__ void operator()(I item) const {
    const I inner_n = static_cast<I>(inner);
    const I a_n = static_cast<I>(outer_a);
    const I b_n = static_cast<I>(outer_b);
    const I e = by_quads() ? item * 4 : item;  // first output element of the item
    const I r = e % inner_n;
    const I ba = e / inner_n;  // = b * A + a
    const I a = ba % a_n;
    const I b = ba / a_n;
    const I from = (a * b_n + b) * inner_n + r;
    if (by_quads()) {
      store4(out + e, load4(in + from));
    } else {
      out[e] = in[from];
    }
  }
};

}  // namespace cae_v2
