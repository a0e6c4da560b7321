// bf16-as-fp32: declares FP32 (device_info is the cpu backend's), but
// conv2d_forward and conv2d_backward round their float inputs to bfloat16
// (round to nearest even) before computing, as BF16 tensor cores would.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>

#include "mutant_core.hpp"

namespace mutant {
namespace {

float to_bf16(float value) {
  if (std::isnan(value)) return value;
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const uint32_t round_to_nearest_even = 0x7FFFu + ((bits >> 16) & 1u);
  bits = (bits + round_to_nearest_even) & 0xFFFF0000u;
  std::memcpy(&value, &bits, sizeof bits);
  return value;
}

// A bf16-rounded copy of t, alive as long as the returned Scratch.
std::unique_ptr<Scratch> bf16_copy(cae_context ctx, cae_tensor t) {
  std::vector<float> values = download(ctx, t);
  for (float& v : values) v = to_bf16(v);
  return std::make_unique<Scratch>(ctx, dims_of(t), values);
}

cae_status conv2d_forward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b, cae_tensor y,
                          int32_t fuse_relu) {
  if (!tracked({x, w})) return base().conv2d_forward(ctx, x, w, b, y, fuse_relu);
  return run([&] {
    const auto x16 = bf16_copy(ctx, x), w16 = bf16_copy(ctx, w);
    check(base().conv2d_forward(ctx, x16->get(), w16->get(), b, y, fuse_relu));
  });
}

cae_status conv2d_backward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy,
                           cae_tensor dx, cae_tensor dw, cae_tensor db) {
  if (!tracked({x, w, dy})) return base().conv2d_backward(ctx, x, w, dy, dx, dw, db);
  return run([&] {
    const auto x16 = bf16_copy(ctx, x), w16 = bf16_copy(ctx, w), dy16 = bf16_copy(ctx, dy);
    check(base().conv2d_backward(ctx, x16->get(), w16->get(), dy16->get(), dx, dw, db));
  });
}

}  // namespace

void mutate(cae_backend_table& table) {
  table.conv2d_forward = conv2d_forward;
  table.conv2d_backward = conv2d_backward;
}

}  // namespace mutant
