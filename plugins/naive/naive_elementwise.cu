// ReLU, 2x2 max-pool and nearest 2x upsample, forward and backward. One
// thread per output element, plain global loads, gathers only (each thread
// writes just its own element), so nothing depends on thread order.
#include "naive_kernels.cuh"
#include "naive_ops.hpp"
#include "naive_storage_index.cuh"

namespace naive {
namespace {

// ---- ReLU (any shape; tensors of different shapes are mapped by StorageOrder)

// y may alias x: each thread reads its element before writing it.
__global__ void relu_forward_kernel(const float* x, float* y, int64_t count, StorageOrder x_order,
                                    StorageOrder y_order) {
  for (int64_t i = global_thread_index(); i < count; i += grid_thread_count()) {
    const float value = x[storage_index(x_order, i)];
    y[storage_index(y_order, i)] = value > 0.0f ? value : 0.0f;
  }
}

// dx may alias dy.
__global__ void relu_backward_kernel(const float* y, const float* dy, float* dx, int64_t count,
                                     StorageOrder y_order, StorageOrder dy_order,
                                     StorageOrder dx_order) {
  for (int64_t i = global_thread_index(); i < count; i += grid_thread_count()) {
    const float gradient = dy[storage_index(dy_order, i)];
    dx[storage_index(dx_order, i)] = y[storage_index(y_order, i)] > 0.0f ? gradient : 0.0f;
  }
}

// ---- 2x2 max-pool on NHWC: big [N,H,W,C], small [N,H/2,W/2,C]

// Which of the window's four elements, in the order (0,0), (0,1), (1,0),
// (1,1), is the first equal to its maximum. Forward and backward both use
// this, so the element that gave the max is the one that gets the gradient.
__device__ int window_argmax(const float* big, int64_t n, int64_t wy, int64_t wx, int64_t c,
                             int64_t H, int64_t W, int64_t C) {
  int best = 0;
  float best_value = big[((n * H + 2 * wy) * W + 2 * wx) * C + c];
  for (int k = 1; k < 4; ++k) {
    const float value = big[((n * H + 2 * wy + k / 2) * W + 2 * wx + k % 2) * C + c];
    if (value > best_value) {  // strictly greater: ties keep the earlier element
      best = k;
      best_value = value;
    }
  }
  return best;
}

// One thread per element of y [N,H/2,W/2,C]; H, W are the input's.
__global__ void maxpool_forward_kernel(const float* x, float* y, int64_t N, int64_t H, int64_t W,
                                       int64_t C) {
  const int64_t Ho = H / 2, Wo = W / 2;
  const int64_t total = N * Ho * Wo * C;
  for (int64_t i = global_thread_index(); i < total; i += grid_thread_count()) {
    const int64_t c = i % C;
    const int64_t pixel = i / C;
    const int64_t wx = pixel % Wo;
    const int64_t wy = (pixel / Wo) % Ho;
    const int64_t n = pixel / (Wo * Ho);
    const int best = window_argmax(x, n, wy, wx, c, H, W, C);
    y[i] = x[((n * H + 2 * wy + best / 2) * W + 2 * wx + best % 2) * C + c];
  }
}

// One thread per element of dx [N,H,W,C]: it gets its window's gradient if it
// is the window's chosen element, else 0.
__global__ void maxpool_backward_kernel(const float* x, const float* dy, float* dx, int64_t N,
                                        int64_t H, int64_t W, int64_t C) {
  const int64_t Ho = H / 2, Wo = W / 2;
  const int64_t total = N * H * W * C;
  for (int64_t i = global_thread_index(); i < total; i += grid_thread_count()) {
    const int64_t c = i % C;
    const int64_t pixel = i / C;
    const int64_t ix = pixel % W;
    const int64_t iy = (pixel / W) % H;
    const int64_t n = pixel / (W * H);
    const int64_t wy = iy / 2, wx = ix / 2;
    const int position = static_cast<int>((iy % 2) * 2 + ix % 2);
    const bool chosen = window_argmax(x, n, wy, wx, c, H, W, C) == position;
    dx[i] = chosen ? dy[((n * Ho + wy) * Wo + wx) * C + c] : 0.0f;
  }
}

// ---- nearest 2x upsample on NHWC: small [N,H,W,C], big [N,2H,2W,C]

// One thread per element of y [N,2H,2W,C]; H, W are the input's.
__global__ void upsample_forward_kernel(const float* x, float* y, int64_t N, int64_t H, int64_t W,
                                        int64_t C) {
  const int64_t Hb = 2 * H, Wb = 2 * W;
  const int64_t total = N * Hb * Wb * C;
  for (int64_t i = global_thread_index(); i < total; i += grid_thread_count()) {
    const int64_t c = i % C;
    const int64_t pixel = i / C;
    const int64_t bx = pixel % Wb;
    const int64_t by = (pixel / Wb) % Hb;
    const int64_t n = pixel / (Wb * Hb);
    y[i] = x[((n * H + by / 2) * W + bx / 2) * C + c];
  }
}

// One thread per element of dx [N,H,W,C]: the sum of its 2x2 block of dy,
// in the order (0,0), (0,1), (1,0), (1,1).
__global__ void upsample_backward_kernel(const float* dy, float* dx, int64_t N, int64_t H,
                                         int64_t W, int64_t C) {
  const int64_t Hb = 2 * H, Wb = 2 * W;
  const int64_t total = N * H * W * C;
  for (int64_t i = global_thread_index(); i < total; i += grid_thread_count()) {
    const int64_t c = i % C;
    const int64_t pixel = i / C;
    const int64_t col = pixel % W;
    const int64_t row = (pixel / W) % H;
    const int64_t n = pixel / (W * H);
    float sum = 0.0f;
    for (int k = 0; k < 4; ++k) {
      sum += dy[((n * Hb + 2 * row + k / 2) * Wb + 2 * col + k % 2) * C + c];
    }
    dx[i] = sum;
  }
}

}  // namespace

void relu_forward(cae_context_s& ctx, const cae_tensor_s& x, cae_tensor_s& y) {
  const auto orders = elementwise_orders({&x, &y});
  const int64_t count = x.shape.count();
  relu_forward_kernel<<<blocks_for(count), kThreadsPerBlock, 0, ctx.stream>>>(x.data, y.data, count,
                                                                              orders[0], orders[1]);
  CAE_CUDA_CHECK_LAUNCH("relu_forward_kernel");
}

void relu_backward(cae_context_s& ctx, const cae_tensor_s& y, const cae_tensor_s& dy,
                   cae_tensor_s& dx) {
  const auto orders = elementwise_orders({&y, &dy, &dx});
  const int64_t count = y.shape.count();
  relu_backward_kernel<<<blocks_for(count), kThreadsPerBlock, 0, ctx.stream>>>(
      y.data, dy.data, dx.data, count, orders[0], orders[1], orders[2]);
  CAE_CUDA_CHECK_LAUNCH("relu_backward_kernel");
}

void maxpool2x2_forward(cae_context_s& ctx, const cae_tensor_s& x, cae_tensor_s& y) {
  const cae_plugin::Shape& s = x.shape;  // [N,C,H,W]
  maxpool_forward_kernel<<<blocks_for(y.shape.count()), kThreadsPerBlock, 0, ctx.stream>>>(
      x.data, y.data, s[0], s[2], s[3], s[1]);
  CAE_CUDA_CHECK_LAUNCH("maxpool_forward_kernel");
}

void maxpool2x2_backward(cae_context_s& ctx, const cae_tensor_s& x, const cae_tensor_s& dy,
                         cae_tensor_s& dx) {
  const cae_plugin::Shape& s = x.shape;
  maxpool_backward_kernel<<<blocks_for(dx.shape.count()), kThreadsPerBlock, 0, ctx.stream>>>(
      x.data, dy.data, dx.data, s[0], s[2], s[3], s[1]);
  CAE_CUDA_CHECK_LAUNCH("maxpool_backward_kernel");
}

void upsample2x_forward(cae_context_s& ctx, const cae_tensor_s& x, cae_tensor_s& y) {
  const cae_plugin::Shape& s = x.shape;
  upsample_forward_kernel<<<blocks_for(y.shape.count()), kThreadsPerBlock, 0, ctx.stream>>>(
      x.data, y.data, s[0], s[2], s[3], s[1]);
  CAE_CUDA_CHECK_LAUNCH("upsample_forward_kernel");
}

void upsample2x_backward(cae_context_s& ctx, const cae_tensor_s& dy, cae_tensor_s& dx) {
  const cae_plugin::Shape& s = dx.shape;  // the small side
  upsample_backward_kernel<<<blocks_for(dx.shape.count()), kThreadsPerBlock, 0, ctx.stream>>>(
      dy.data, dx.data, s[0], s[2], s[3], s[1]);
  CAE_CUDA_CHECK_LAUNCH("upsample_backward_kernel");
}

}  // namespace naive
