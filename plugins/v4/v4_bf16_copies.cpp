#include "v4_bf16_copies.hpp"

namespace cae_v4 {
namespace {

cae_cuda::ColumnCache::Geometry geometry_of(CopyOf kind, int64_t N, int64_t C, int64_t H,
                                            int64_t W) {
  return {N, C, H, W, static_cast<int64_t>(kind)};
}

size_t floats_of(int64_t N, int64_t C, int64_t H, int64_t W) {
  return size_t(bf16_floats(N * C * H * W));
}

Bf16Copy copy_in(cae_cuda::ColumnCache::Slot* slot) {
  if (slot == nullptr) return {};
  return {slot, reinterpret_cast<__nv_bfloat16*>(slot->memory.as())};
}

}  // namespace

Bf16Copy bf16_copy_for_writing(cae_cuda::Context& ctx, CopyOf kind, int64_t N, int64_t C, int64_t H,
                               int64_t W) {
  if (ctx.tuning.bf16_terms != 1 || C % 8 != 0) return {};
  return copy_in(ctx.columns.slot_for(geometry_of(kind, N, C, H, W), floats_of(N, C, H, W)));
}

Bf16Copy bf16_copy_for_reading(cae_cuda::Context& ctx, CopyOf kind, int64_t N, int64_t C, int64_t H,
                               int64_t W) {
  if (ctx.tuning.bf16_terms != 1) return {};
  return copy_in(ctx.columns.find(geometry_of(kind, N, C, H, W), floats_of(N, C, H, W)));
}

}  // namespace cae_v4
