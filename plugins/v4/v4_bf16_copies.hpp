// The BF16 copies of activations and gradients that v4's GEMMs read, kept in
// the context's column cache (a captured graph's own cache while it runs)
// under the version of the FP32 tensor they copy.
//
// A convolution makes the copy it reads when none is current: one conversion
// pass over the tensor (v4_conv.cu). A fused kernel that writes the tensor
// anyway can write the copy in the same pass and tag it
// (v4_graph_fusion.cpp): the first layer's pooled output, which the second
// layer's forward and weight gradient read, and the last layer's dt, the
// gradient the layer before it reads. That saves the conversion kernel: a
// read of the FP32 tensor, a write of the copy and a launch.
//
// The copies of an activation and of a gradient of the same shape are
// different slots (the geometry's last entry: 0 or -1; the TF32 path's
// im2col slots have K >= 1 there).
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

#include "runtime_context.hpp"

namespace cae_v4 {

enum class CopyOf : int64_t { activation = 0, gradient = -1 };

// Floats of device memory (a cache slot or scratch) that hold count BF16 values.
inline int64_t bf16_floats(int64_t count) { return (count + 1) / 2; }

struct Bf16Copy {
  cae_cuda::ColumnCache::Slot* slot = nullptr;
  __nv_bfloat16* data = nullptr;  // NULL: no copy kept (cache off or full, several BF16 terms)
};

// Where the copy of a channels-last tensor [N, H, W, C] goes, for a writer:
// its slot, allocated if need be. Empty where no GEMM would read one: with
// several BF16 terms (option bf16-terms) or channels not in 8s (the TF32
// path's layers).
Bf16Copy bf16_copy_for_writing(cae_cuda::Context& ctx, CopyOf kind, int64_t N, int64_t C, int64_t H,
                               int64_t W);

// The slot a writer filled, for a reader that converts for itself otherwise:
// never allocates or evicts (empty when there is none).
Bf16Copy bf16_copy_for_reading(cae_cuda::Context& ctx, CopyOf kind, int64_t N, int64_t C, int64_t H,
                               int64_t W);

// Whether the copy holds `source` as it is now.
inline bool holds(const Bf16Copy& copy, const cae_tensor_s& source) {
  return copy.slot != nullptr && source.version != 0 && copy.slot->version == source.version;
}

// Before its writes are queued: current for nothing, so a launch that fails
// leaves no stale tag.
inline void begin_refill(Bf16Copy& copy) {
  if (copy.slot != nullptr) copy.slot->version = 0;
}

// After they are queued, and after the source's own version is set (ctx.wrote).
inline void tag(Bf16Copy& copy, const cae_tensor_s& source) {
  if (copy.slot != nullptr) copy.slot->version = source.version;
}

}  // namespace cae_v4
