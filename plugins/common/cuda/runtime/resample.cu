// 2x2 max-pool and 2x nearest-neighbour upsample, forward and backward, on
// NHWC tensors: the bodies of resample_kernels.cuh, four channels per
// item when the channel count allows.
#include <string>

#include "resample_kernels.cuh"
#include "runtime_launch.cuh"
#include "runtime_ops.hpp"
#include "runtime_tensor.hpp"

namespace cae_cuda {

namespace {

// Items over the small image; checks that they fit in 32 bits.
struct SmallImage {
  uint32_t n, h, w, c;
  bool vector;

  SmallImage(const cae_plugin::Shape& small, const char* op)
      : n(static_cast<uint32_t>(small[0])),
        h(static_cast<uint32_t>(small[2])),
        w(static_cast<uint32_t>(small[3])),
        c(static_cast<uint32_t>(small[1])),
        vector(small[1] % 4 == 0) {
    if (small.count() >= (int64_t(1) << 30)) {
      cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                       std::string(op) + ": tensor too large (2^30 elements or more)");
    }
  }
  uint32_t items() const { return n * h * w * c / (vector ? 4 : 1); }
  HalfGrid grid() const { return HalfGrid(h, w, c, vector ? 4 : 1); }
};

cae_plugin::Shape halved(const cae_plugin::Shape& big) {
  cae_plugin::Shape s = big;
  s.dims[2] /= 2;
  s.dims[3] /= 2;
  return s;
}

}  // namespace

void maxpool2x2_forward(Context& ctx, const cae_plugin::Shape& x_shape, const float* x, float* y,
                        uint8_t* choice, __nv_bfloat16* y_bf16) {
  const SmallImage s(halved(x_shape), "maxpool2x2_forward");
  if (s.vector) {
    launch_flat(ctx, s.items(), PoolForward<4>{s.grid(), x, y, choice, y_bf16}, "pool forward");
  } else {
    launch_flat(ctx, s.items(), PoolForward<1>{s.grid(), x, y, choice, y_bf16}, "pool forward");
  }
}

void maxpool2x2_backward(Context& ctx, const cae_plugin::Shape& x_shape, const float* x,
                         const uint8_t* choice, const float* dy, float* dx, bool relu_after,
                         __nv_bfloat16* dx_bf16) {
  const SmallImage s(halved(x_shape), "maxpool2x2_backward");
  if (s.vector) {
    launch_flat(ctx, s.items(), PoolBackward<4>{s.grid(), x, choice, dy, dx, relu_after, dx_bf16},
                "pool backward");
  } else {
    launch_flat(ctx, s.items(), PoolBackward<1>{s.grid(), x, choice, dy, dx, relu_after, dx_bf16},
                "pool backward");
  }
}

void upsample2x_forward(Context& ctx, const cae_plugin::Shape& y_shape, const float* x, float* y,
                        __nv_bfloat16* y_bf16) {
  const SmallImage s(halved(y_shape), "upsample2x_forward");
  if (s.vector) {
    launch_flat(ctx, s.items(), UpsampleForward<4>{s.grid(), x, y, y_bf16}, "upsample forward");
  } else {
    launch_flat(ctx, s.items(), UpsampleForward<1>{s.grid(), x, y, y_bf16}, "upsample forward");
  }
}

void upsample2x_backward(Context& ctx, const cae_plugin::Shape& dy_shape, const float* dy,
                         float* dx, const float* relu_y, __nv_bfloat16* dx_bf16) {
  const SmallImage s(halved(dy_shape), "upsample2x_backward");
  if (s.vector) {
    launch_flat(ctx, s.items(), UpsampleBackward<4>{s.grid(), dy, dx, relu_y, dx_bf16},
                "upsample backward");
  } else {
    launch_flat(ctx, s.items(), UpsampleBackward<1>{s.grid(), dy, dx, relu_y, dx_bf16},
                "upsample backward");
  }
}

void maxpool2x2_forward_recording(Context& ctx, cae_tensor_s& x, float* y, __nv_bfloat16* y_bf16) {
  auto* choice = static_cast<uint8_t*>(derived_storage(
      x.pool_choice, static_cast<size_t>(x.shape.count() / 4), ctx.memory, "max-pool choices"));
  x.pool_choice.version = 0;  // being rewritten
  maxpool2x2_forward(ctx, x.shape, x.data, y, choice, y_bf16);
  x.pool_choice.version = x.version;
}

void maxpool2x2_backward_recorded(Context& ctx, const cae_tensor_s& x, const float* dy, float* dx,
                                  bool relu_after, __nv_bfloat16* dx_bf16) {
  const bool recorded = x.pool_choice.data && x.pool_choice.version == x.version;
  maxpool2x2_backward(ctx, x.shape, x.data,
                      recorded ? static_cast<const uint8_t*>(x.pool_choice.data) : nullptr, dy, dx,
                      relu_after, dx_bf16);
}

}  // namespace cae_cuda
