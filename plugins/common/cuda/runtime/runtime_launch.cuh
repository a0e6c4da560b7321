// Launchers for the per-element bodies of the runtime (resample_kernels.cuh)
// and of the convolutions built on it (tf32_conv/tf32_conv_kernels.cuh): "row"
// bodies do the items of one pixel's row, "flat" bodies one index each. All
// indices fit in 32 bits (the ops check their sizes before they get here), and
// grid-stride loops cover any count. Every kernel of the runtime, v3 and v4 is
// launched through launch() and begins with begin_after_prior_kernels()
// (programmatic_launch.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>

#include "cuda_support.hpp"
#include "nhwc_pixels.cuh"
#include "programmatic_launch.cuh"
#include "runtime_context.hpp"

namespace cae_cuda {

using cae_plugin::cuda::begin_after_prior_kernels;

constexpr unsigned kThreads = 256;

template <class Body>
__global__ void __launch_bounds__(kThreads) row_items_kernel(uint32_t pixels, Body body) {
  begin_after_prior_kernels();
  const uint32_t items = body.items_per_row();
  const uint32_t step = gridDim.x * blockDim.y;
  for (uint32_t p = blockIdx.x * blockDim.y + threadIdx.y; p < pixels; p += step) {
    const Pixel at = locate(body.grid, p);
    for (uint32_t item = threadIdx.x; item < items; item += blockDim.x) body(at, item);
  }
}

template <class Body>
__global__ void __launch_bounds__(kThreads) flat_items_kernel(uint32_t count, Body body) {
  begin_after_prior_kernels();
  const uint32_t step = gridDim.x * kThreads;
  for (uint32_t e = blockIdx.x * kThreads + threadIdx.x; e < count; e += step) body(e);
}

// kernel<<<grid, block, shared_bytes, ctx.stream>>>(arguments...), scheduled
// during the previous kernel's last wave where the context allows it. The
// first launch after the side stream's fork or join is fully ordered, so that
// no early start could be taken as leave to pass that wait.
template <class... Parameters, class... Arguments>
void launch(Context& ctx, const char* name, void (*kernel)(Parameters...), dim3 grid, dim3 block,
            size_t shared_bytes, Arguments&&... arguments) {
  const bool after_stream_wait = ctx.side.take_stream_wait();
  const cudaError_t err = cae_plugin::cuda::launch_kernel(
      ctx.programmatic_launch && !after_stream_wait, ctx.stream, kernel, grid, block, shared_bytes,
      std::forward<Arguments>(arguments)...);
  if (err != cudaSuccess) {
    cae_plugin::cuda::check(err, (std::string("launch of ") + name).c_str(), __FILE__, __LINE__);
  }
}

// A block is (lanes x rows): lanes = the smallest power of two covering a
// row's items (at most 32), so short rows do not leave most lanes idle.
template <class Body>
void launch_rows(Context& ctx, uint32_t pixels, const Body& body, const char* name) {
  if (pixels == 0) return;
  unsigned lanes = 32;
  while (lanes > 1 && lanes / 2 >= body.items_per_row()) lanes /= 2;
  const unsigned rows = kThreads / lanes;
  const unsigned blocks = cae_plugin::cuda::grid_for((int64_t(pixels) + rows - 1) / rows, 1);
  launch(ctx, name, row_items_kernel<Body>, blocks, dim3(lanes, rows), 0, pixels, body);
}

template <class Body>
void launch_flat(Context& ctx, uint32_t count, const Body& body, const char* name) {
  if (count == 0) return;
  launch(ctx, name, flat_items_kernel<Body>, cae_plugin::cuda::grid_for(count, kThreads), kThreads,
         0, count, body);
}

}  // namespace cae_cuda
