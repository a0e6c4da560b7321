// 2×2 max-pool and nearest-neighbour 2× upsample, forward and backward.
// Every (n, c) plane is independent; planes are the parallel work items.
#include <cstdint>

#include "cpu_context.hpp"
#include "cpu_ops.hpp"
#include "cpu_parallel.hpp"
#include "op_shapes.hpp"

namespace cae_cpu {
namespace {

// A 2×2 window in the order (0,0), (0,1), (1,0), (1,1).
struct Window {
  float v[4];
  Window(const float* top, const float* bottom) noexcept
      : v{top[0], top[1], bottom[0], bottom[1]} {}

  // The maximum; a later element replaces the pick only when strictly
  // greater, so the pick is the FIRST element equal to the maximum.
  float max() const noexcept {
    float best = v[0];
    for (int k = 1; k < 4; ++k) best = v[k] > best ? v[k] : best;
    return best;
  }
};

// Which element of the window gets the gradient: the first equal to max()
// (the tie rule of the ABI). Forward and backward share max(), so they agree
// exactly. Written as selects on plain bools rather than branches: after a
// ReLU the comparisons are unpredictable.
struct FirstMax {
  bool at[4];
  explicit FirstMax(const Window& w) noexcept {
    const float best = w.max();
    at[0] = w.v[0] == best;
    at[1] = !at[0] & (w.v[1] == best);
    at[2] = !(at[0] | at[1]) & (w.v[2] == best);
    at[3] = !(at[0] | at[1] | at[2]);
  }
};

// Planes of a [N,C,H,W] tensor and the size of the larger of a pair.
struct PlanePair {
  int64_t planes, big_h, big_w;
  int64_t small_h() const { return big_h / 2; }
  int64_t small_w() const { return big_w / 2; }
};

PlanePair plane_pair(const cae_plugin::Shape& big) { return {big[0] * big[1], big[2], big[3]}; }

}  // namespace

cae_status maxpool2x2_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "maxpool2x2_forward";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& X = tensor_arg(c, x, op, "x");
    const cae_tensor_s& Y = tensor_arg(c, y, op, "y");
    cae_plugin::check_pool2x2(op, X.shape, Y.shape);
    const PlanePair p = plane_pair(X.shape);
    parallel_for(c.threads, p.planes, [&](int64_t plane) {
      const float* in = X.data() + plane * p.big_h * p.big_w;
      float* out = Y.data() + plane * p.small_h() * p.small_w();
      for (int64_t i = 0; i < p.small_h(); ++i) {
        const float* top = in + 2 * i * p.big_w;
        const float* bottom = top + p.big_w;
        for (int64_t j = 0; j < p.small_w(); ++j) {
          out[i * p.small_w() + j] = Window(top + 2 * j, bottom + 2 * j).max();
        }
      }
    });
  });
}

cae_status maxpool2x2_backward(cae_context ctx, cae_tensor x, cae_tensor dy, cae_tensor dx) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "maxpool2x2_backward";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& X = tensor_arg(c, x, op, "x");
    const cae_tensor_s& DY = tensor_arg(c, dy, op, "dy");
    const cae_tensor_s& DX = tensor_arg(c, dx, op, "dx");
    cae_plugin::check_pool2x2(op, X.shape, DY.shape);
    cae_plugin::check_same_shape(op, "dx", DX.shape, "x", X.shape);
    const PlanePair p = plane_pair(X.shape);
    parallel_for(c.threads, p.planes, [&](int64_t plane) {
      const float* in = X.data() + plane * p.big_h * p.big_w;
      const float* grad_out = DY.data() + plane * p.small_h() * p.small_w();
      float* grad_in = DX.data() + plane * p.big_h * p.big_w;
      for (int64_t i = 0; i < p.small_h(); ++i) {
        const int64_t top = 2 * i * p.big_w, bottom = top + p.big_w;
        for (int64_t j = 0; j < p.small_w(); ++j) {
          const int64_t left = 2 * j;
          const FirstMax pick(Window(in + top + left, in + bottom + left));
          const float g = grad_out[i * p.small_w() + j];
          grad_in[top + left] = pick.at[0] ? g : 0.0f;
          grad_in[top + left + 1] = pick.at[1] ? g : 0.0f;
          grad_in[bottom + left] = pick.at[2] ? g : 0.0f;
          grad_in[bottom + left + 1] = pick.at[3] ? g : 0.0f;
        }
      }
    });
  });
}

cae_status upsample2x_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "upsample2x_forward";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& X = tensor_arg(c, x, op, "x");
    const cae_tensor_s& Y = tensor_arg(c, y, op, "y");
    cae_plugin::check_upsample2x(op, X.shape, Y.shape);
    const PlanePair p = plane_pair(Y.shape);
    parallel_for(c.threads, p.planes, [&](int64_t plane) {
      const float* in = X.data() + plane * p.small_h() * p.small_w();
      float* out = Y.data() + plane * p.big_h * p.big_w;
      for (int64_t i = 0; i < p.big_h; ++i) {
        const float* in_row = in + (i / 2) * p.small_w();
        float* out_row = out + i * p.big_w;
        for (int64_t j = 0; j < p.big_w; ++j) out_row[j] = in_row[j / 2];
      }
    });
  });
}

cae_status upsample2x_backward(cae_context ctx, cae_tensor dy, cae_tensor dx) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "upsample2x_backward";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& DY = tensor_arg(c, dy, op, "dy");
    const cae_tensor_s& DX = tensor_arg(c, dx, op, "dx");
    cae_plugin::check_upsample2x(op, DX.shape, DY.shape);
    const PlanePair p = plane_pair(DY.shape);
    parallel_for(c.threads, p.planes, [&](int64_t plane) {
      const float* grad_out = DY.data() + plane * p.big_h * p.big_w;
      float* grad_in = DX.data() + plane * p.small_h() * p.small_w();
      for (int64_t i = 0; i < p.small_h(); ++i) {
        const float* top = grad_out + 2 * i * p.big_w;
        const float* bottom = top + p.big_w;
        for (int64_t j = 0; j < p.small_w(); ++j) {
          grad_in[i * p.small_w() + j] =
              top[2 * j] + top[2 * j + 1] + bottom[2 * j] + bottom[2 * j + 1];
        }
      }
    });
  });
}

}  // namespace cae_cpu
