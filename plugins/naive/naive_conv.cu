// 3x3 (any odd K) same-padded convolution, stride 1, on NHWC activations and
// OHWI weights (the storage rule of naive_context.hpp).
//
// Every output element gets its own thread, which loops over everything that
// contributes to it with plain global loads: no tiling, no shared memory and
// no atomics. Each sum therefore has one fixed order, so results are
// bit-reproducible. Consecutive threads hold consecutive elements of the
// innermost (channel) dimension of their output, which decides how the loads
// of a warp fall: broadcast (one address for all 32 threads) or coalesced
// (32 consecutive floats).
#include "naive_kernels.cuh"
#include "naive_ops.hpp"

namespace naive {
namespace {

// w_taps [K,K,C,O] <- w [O,K,K,C], once per forward call (the weights are
// small). In the forward pass a warp holds 32 consecutive output channels o;
// read from OHWI, its weight loads would hit 32 cache lines each. The backward
// kernels hold consecutive c instead and read OHWI directly.
__global__ void weights_to_taps_kernel(const float* w, float* w_taps, int64_t O, int64_t C,
                                       int64_t K) {
  const int64_t total = O * K * K * C;
  for (int64_t i = global_thread_index(); i < total; i += grid_thread_count()) {
    const int64_t o = i % O;
    const int64_t rest = i / O;
    const int64_t c = rest % C;
    const int64_t tap = rest / C;  // ky * K + kx
    w_taps[i] = w[(o * K * K + tap) * C + c];
  }
}

// y[n,oy,ox,o] = b[o] + sum over ky,kx,c of x[n,oy+ky-pad,ox+kx-pad,c] * w[o,ky,kx,c]
// (then ReLU). Warp: consecutive o, so x is a broadcast and w_taps coalesced.
__global__ void conv2d_forward_kernel(const float* x, const float* w_taps, const float* b, float* y,
                                      int64_t N, int64_t C, int64_t H, int64_t W, int64_t O,
                                      int64_t K, bool fuse_relu) {
  const int64_t pad = K / 2;
  const int64_t total = N * H * W * O;
  for (int64_t i = global_thread_index(); i < total; i += grid_thread_count()) {
    const int64_t o = i % O;
    const int64_t pixel = i / O;  // (n * H + oy) * W + ox
    const int64_t ox = pixel % W;
    const int64_t oy = (pixel / W) % H;
    const int64_t n = pixel / (W * H);

    float sum = b[o];
    for (int64_t ky = 0; ky < K; ++ky) {
      const int64_t iy = oy + ky - pad;
      if (iy < 0 || iy >= H) continue;  // zero padding
      for (int64_t kx = 0; kx < K; ++kx) {
        const int64_t ix = ox + kx - pad;
        if (ix < 0 || ix >= W) continue;
        const float* x_pixel = x + ((n * H + iy) * W + ix) * C;
        const float* w_tap = w_taps + (ky * K + kx) * C * O + o;
        for (int64_t c = 0; c < C; ++c) sum += x_pixel[c] * w_tap[c * O];
      }
    }
    if (fuse_relu) sum = sum > 0.0f ? sum : 0.0f;  // as relu_forward: NaN -> 0
    y[i] = sum;
  }
}

// dx[n,iy,ix,c] = sum over ky,kx,o of dy[n,iy-ky+pad,ix-kx+pad,o] * w[o,ky,kx,c]:
// each input element gathers from the outputs whose window covered it.
// Warp: consecutive c, so dy is a broadcast and w coalesced.
__global__ void conv2d_input_grad_kernel(const float* w, const float* dy, float* dx, int64_t N,
                                         int64_t C, int64_t H, int64_t W, int64_t O, int64_t K) {
  const int64_t pad = K / 2;
  const int64_t filter_size = K * K * C;  // distance between w[o] and w[o+1]
  const int64_t total = N * H * W * C;
  for (int64_t i = global_thread_index(); i < total; i += grid_thread_count()) {
    const int64_t c = i % C;
    const int64_t pixel = i / C;  // (n * H + iy) * W + ix
    const int64_t ix = pixel % W;
    const int64_t iy = (pixel / W) % H;
    const int64_t n = pixel / (W * H);

    float sum = 0.0f;
    for (int64_t ky = 0; ky < K; ++ky) {
      const int64_t oy = iy - ky + pad;
      if (oy < 0 || oy >= H) continue;
      for (int64_t kx = 0; kx < K; ++kx) {
        const int64_t ox = ix - kx + pad;
        if (ox < 0 || ox >= W) continue;
        const float* dy_pixel = dy + ((n * H + oy) * W + ox) * O;
        const float* w_tap = w + (ky * K + kx) * C + c;
        for (int64_t o = 0; o < O; ++o) sum += dy_pixel[o] * w_tap[o * filter_size];
      }
    }
    dx[i] = sum;
  }
}

// dw[o,ky,kx,c] = sum over n,oy,ox of dy[n,oy,ox,o] * x[n,oy+ky-pad,ox+kx-pad,c],
// the loop order fixed (n, then oy, then ox). Only output positions whose
// input tap lies inside the image contribute. Warp: consecutive c, so dy is a
// broadcast and x coalesced.
__global__ void conv2d_weight_grad_kernel(const float* x, const float* dy, float* dw, int64_t N,
                                          int64_t C, int64_t H, int64_t W, int64_t O, int64_t K) {
  const int64_t pad = K / 2;
  const int64_t total = O * K * K * C;
  for (int64_t i = global_thread_index(); i < total; i += grid_thread_count()) {
    const int64_t c = i % C;
    const int64_t rest = i / C;  // (o * K + ky) * K + kx
    const int64_t kx = rest % K;
    const int64_t ky = (rest / K) % K;
    const int64_t o = rest / (K * K);
    // 0 <= oy + ky - pad < H  <=>  pad - ky <= oy < H + pad - ky
    const int64_t oy_begin = max(int64_t{0}, pad - ky);
    const int64_t oy_end = min(H, H + pad - ky);
    const int64_t ox_begin = max(int64_t{0}, pad - kx);
    const int64_t ox_end = min(W, W + pad - kx);

    float sum = 0.0f;
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t oy = oy_begin; oy < oy_end; ++oy) {
        for (int64_t ox = ox_begin; ox < ox_end; ++ox) {
          const int64_t iy = oy + ky - pad;
          const int64_t ix = ox + kx - pad;
          sum += dy[((n * H + oy) * W + ox) * O + o] * x[((n * H + iy) * W + ix) * C + c];
        }
      }
    }
    dw[i] = sum;
  }
}

// db[o] = sum of dy[n,oy,ox,o] over every position, in storage order.
__global__ void conv2d_bias_grad_kernel(const float* dy, float* db, int64_t positions, int64_t O) {
  for (int64_t o = global_thread_index(); o < O; o += grid_thread_count()) {
    float sum = 0.0f;
    for (int64_t p = 0; p < positions; ++p) sum += dy[p * O + o];
    db[o] = sum;
  }
}

}  // namespace

void conv2d_forward(cae_context_s& ctx, const cae_tensor_s& x, const cae_tensor_s& w,
                    const cae_tensor_s& b, cae_tensor_s& y, const cae_plugin::ConvDims& d,
                    bool fuse_relu) {
  const int64_t weight_count = d.O * d.C * d.K * d.K;
  float* w_taps = ctx.scratch_floats(ctx.conv_weights, static_cast<size_t>(weight_count),
                                     "conv2d_forward weight re-layout");
  weights_to_taps_kernel<<<blocks_for(weight_count), kThreadsPerBlock, 0, ctx.stream>>>(
      w.data, w_taps, d.O, d.C, d.K);
  CAE_CUDA_CHECK_LAUNCH("weights_to_taps_kernel");

  conv2d_forward_kernel<<<blocks_for(y.shape.count()), kThreadsPerBlock, 0, ctx.stream>>>(
      x.data, w_taps, b.data, y.data, d.N, d.C, d.H, d.W, d.O, d.K, fuse_relu);
  CAE_CUDA_CHECK_LAUNCH("conv2d_forward_kernel");
}

void conv2d_backward(cae_context_s& ctx, const cae_tensor_s& x, const cae_tensor_s& w,
                     const cae_tensor_s& dy, cae_tensor_s* dx, cae_tensor_s& dw, cae_tensor_s& db,
                     const cae_plugin::ConvDims& d) {
  if (dx) {
    conv2d_input_grad_kernel<<<blocks_for(dx->shape.count()), kThreadsPerBlock, 0, ctx.stream>>>(
        w.data, dy.data, dx->data, d.N, d.C, d.H, d.W, d.O, d.K);
    CAE_CUDA_CHECK_LAUNCH("conv2d_input_grad_kernel");
  }
  conv2d_weight_grad_kernel<<<blocks_for(dw.shape.count()), kThreadsPerBlock, 0, ctx.stream>>>(
      x.data, dy.data, dw.data, d.N, d.C, d.H, d.W, d.O, d.K);
  CAE_CUDA_CHECK_LAUNCH("conv2d_weight_grad_kernel");

  conv2d_bias_grad_kernel<<<blocks_for(d.O), kThreadsPerBlock, 0, ctx.stream>>>(
      dy.data, db.data, d.N * d.H * d.W, d.O);
  CAE_CUDA_CHECK_LAUNCH("conv2d_bias_grad_kernel");
}

}  // namespace naive
