// One launcher for the element-wise and gather kernels of v2.
//
// Each such kernel is a "body": a small struct holding pointers and sizes,
// with work_items(), largest_offset() and a __host__ __device__
// operator()(Index item) that does the work of one item (usually 4 adjacent
// elements, read and written as float4). Keeping the index math in plain
// functions lets a host program run the very same bodies in a loop.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "cuda_support.hpp"

namespace cae_v2 {

constexpr unsigned kThreadsPerBlock = 256;

template <class Index, class Body>
__global__ void __launch_bounds__(kThreadsPerBlock) for_each_item(Index count, Body body) {
  const Index stride = static_cast<Index>(gridDim.x) * kThreadsPerBlock;
  for (Index item = static_cast<Index>(blockIdx.x) * kThreadsPerBlock + threadIdx.x; item < count;
       item += stride) {
    body(item);
  }
}

// 32-bit index math (much cheaper divisions) when every offset a body forms
// fits, with headroom for a body's "first element + 4" and for the loop's
// item + stride (stride < 2^30 with grid_for's cap).
inline bool fits_32bit_indexing(int64_t items, int64_t largest_offset) {
  return items < (int64_t(1) << 30) && largest_offset <= (int64_t(1) << 31) - 64;
}

// Runs body(item) for item in [0, body.work_items()) on `stream`. Launch
// errors become a cae_plugin::Error naming `kernel`.
template <class Body>
void launch_for_each(const Body& body, cudaStream_t stream, const char* kernel) {
  const int64_t items = body.work_items();
  if (items <= 0) return;
  const unsigned blocks = cae_plugin::cuda::grid_for(items, kThreadsPerBlock);
  if (fits_32bit_indexing(items, body.largest_offset())) {
    for_each_item<int32_t>
        <<<blocks, kThreadsPerBlock, 0, stream>>>(static_cast<int32_t>(items), body);
  } else {
    for_each_item<int64_t><<<blocks, kThreadsPerBlock, 0, stream>>>(items, body);
  }
  const cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    cae_plugin::cuda::check(err, (std::string("launch of ") + kernel).c_str(), __FILE__, __LINE__);
  }
}

}  // namespace cae_v2
