// The winograd context: the common CUDA state (device, stream, timer, memory
// accounting) plus a cuBLAS handle, one growing workspace, the filter-transform
// cache and the live tensors.
#pragma once

#include <cublas_v2.h>

#include <unordered_set>

#include "cublas_support.hpp"
#include "cuda_support.hpp"
#include "winograd_device_buffer.hpp"
#include "winograd_filter_cache.hpp"
#include "winograd_tensor.hpp"
#include "winograd_tuning_table.hpp"

namespace cae_winograd {

// Partial sums of the two-pass reductions (mse_loss): one per block of the
// first pass (winograd_reductions.cu launches at most this many blocks).
constexpr int kReductionBlocks = 1024;

}  // namespace cae_winograd

struct cae_context_s : cae_plugin::cuda::CudaContextBase {
  // `launch`: the options' override of the launch table (winograd_tuning_table.hpp).
  explicit cae_context_s(const cae_create_options* options,
                         const cae_winograd::LaunchOverride& launch = {});
  ~cae_context_s() override;

  // Declared in the order they must be built; destroyed in reverse (the
  // cuBLAS handle before the workspace it was given).
  cae_winograd::GrowingBuffer blas_workspace;
  cae_plugin::cuda::BlasHandle blas;  // FP32 only, no atomics
  cae_winograd::GrowingBuffer reduction_partials;
  // Transformed tiles and products of the convolution passes: allocated on the
  // first convolution, grown only when a larger pass comes.
  cae_winograd::GrowingBuffer workspace;
  // Filter transforms (G g G^T) per weight tensor and version.
  cae_winograd::FilterCache filters;
  cae_winograd::FilterCache flipped_filters;  // of the data gradient's flipped, transposed filter
  std::unordered_set<cae_tensor_s*> tensors;
  uint64_t next_tensor_id = 1;
  uint64_t write_clock = 0;
  // The options transform-warps and images-per-pass (checked at create).
  cae_winograd::LaunchOverride launch_override;
};

namespace cae_winograd {

using Context = cae_context_s;

// Records that `t` was (or is about to be) overwritten: cached transforms of
// its old values become stale. Every op calls it for each output.
inline void mark_written(Context& ctx, cae_tensor_s* t) {
  if (t) t->version = ++ctx.write_clock;
}

}  // namespace cae_winograd
