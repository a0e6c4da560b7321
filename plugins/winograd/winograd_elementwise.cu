// Element-wise ops: ReLU, 2x2 max-pool, 2x upsample and the optimizer steps,
// one thread per element in a grid-stride loop, with the formulas of
// api/cae/backend.h. These are memory-bound; nothing Winograd-specific here.
#include <cmath>

#include "winograd_ops.hpp"

namespace cae_winograd {
namespace {

constexpr unsigned kThreads = 256;

#define WINOGRAD_FOR_EACH(i, count)                                             \
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < (count); \
       i += int64_t(gridDim.x) * blockDim.x)

__global__ void relu_forward_kernel(const float* x, float* y, int64_t count) {
  WINOGRAD_FOR_EACH(i, count) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

__global__ void relu_backward_kernel(const float* y, const float* dy, float* dx, int64_t count) {
  WINOGRAD_FOR_EACH(i, count) dx[i] = y[i] > 0.0f ? dy[i] : 0.0f;
}

// The window's first maximum in row-major order (the ABI's tie rule): a later
// element wins only when strictly greater.
__device__ int window_argmax(const float* x, int64_t w, float* max_out) {
  const float v[4] = {x[0], x[1], x[w], x[w + 1]};
  int best = 0;
  for (int k = 1; k < 4; ++k)
    if (v[k] > v[best]) best = k;
  *max_out = v[best];
  return best;
}

// One thread per output element (image plane of the small side: h x w).
__global__ void maxpool_forward_kernel(const float* x, float* y, int64_t planes, int64_t h,
                                       int64_t w) {
  WINOGRAD_FOR_EACH(i, planes * h * w) {
    const int64_t plane = i / (h * w), r = (i / w) % h, s = i % w;
    float m;
    window_argmax(x + plane * 4 * h * w + 2 * r * 2 * w + 2 * s, 2 * w, &m);
    y[i] = m;
  }
}

__global__ void maxpool_backward_kernel(const float* x, const float* dy, float* dx, int64_t planes,
                                        int64_t h, int64_t w) {
  WINOGRAD_FOR_EACH(i, planes * h * w) {
    const int64_t plane = i / (h * w), r = (i / w) % h, s = i % w;
    const int64_t corner = plane * 4 * h * w + 2 * r * 2 * w + 2 * s;
    float m;
    const int best = window_argmax(x + corner, 2 * w, &m);
    const int64_t offsets[4] = {0, 1, 2 * w, 2 * w + 1};
    for (int k = 0; k < 4; ++k) dx[corner + offsets[k]] = k == best ? dy[i] : 0.0f;
  }
}

// h, w: the small side.
__global__ void upsample_forward_kernel(const float* x, float* y, int64_t planes, int64_t h,
                                        int64_t w) {
  WINOGRAD_FOR_EACH(i, planes * 4 * h * w) {
    const int64_t plane = i / (4 * h * w), r = (i / (2 * w)) % (2 * h), s = i % (2 * w);
    y[i] = x[plane * h * w + (r / 2) * w + s / 2];
  }
}

__global__ void upsample_backward_kernel(const float* dy, float* dx, int64_t planes, int64_t h,
                                         int64_t w) {
  WINOGRAD_FOR_EACH(i, planes * h * w) {
    const int64_t plane = i / (h * w), r = (i / w) % h, s = i % w;
    const float* block = dy + plane * 4 * h * w + 2 * r * 2 * w + 2 * s;
    dx[i] = (block[0] + block[1]) + (block[2 * w] + block[2 * w + 1]);
  }
}

__global__ void sgd_kernel(float* param, const float* grad, float* velocity, int64_t count,
                           float learning_rate, float momentum, float weight_decay) {
  WINOGRAD_FOR_EACH(i, count) {
    float g = grad[i] + weight_decay * param[i];
    if (velocity) {
      velocity[i] = momentum * velocity[i] + g;
      g = velocity[i];
    }
    param[i] -= learning_rate * g;
  }
}

// bias_correction1/2 = 1 - beta^step, computed on the host in double.
__global__ void adam_kernel(float* param, const float* grad, float* m, float* v, int64_t count,
                            cae_adam_params p, float bias_correction1, float bias_correction2) {
  WINOGRAD_FOR_EACH(i, count) {
    const float g = grad[i] + p.weight_decay * param[i];
    const float m1 = p.beta1 * m[i] + (1.0f - p.beta1) * g;
    const float m2 = p.beta2 * v[i] + (1.0f - p.beta2) * g * g;
    m[i] = m1;
    v[i] = m2;
    param[i] -=
        p.learning_rate * (m1 / bias_correction1) / (sqrtf(m2 / bias_correction2) + p.epsilon);
  }
}

unsigned blocks(int64_t count) { return cae_plugin::cuda::grid_for(count, kThreads); }

}  // namespace
}  // namespace cae_winograd

namespace cae_plugin {
namespace cuda {
namespace device_ops {

using namespace cae_winograd;  // winograd's kernels

void relu_forward(Context& ctx, const float* x, float* y, int64_t count) {
  relu_forward_kernel<<<blocks(count), kThreads, 0, ctx.stream>>>(x, y, count);
  CAE_CUDA_CHECK_LAUNCH("relu_forward_kernel");
}

void relu_backward(Context& ctx, const float* y, const float* dy, float* dx, int64_t count) {
  relu_backward_kernel<<<blocks(count), kThreads, 0, ctx.stream>>>(y, dy, dx, count);
  CAE_CUDA_CHECK_LAUNCH("relu_backward_kernel");
}

void maxpool2x2_forward(Context& ctx, const Shape& s, const float* x, float* y) {
  const int64_t planes = s[0] * s[1], h = s[2] / 2, w = s[3] / 2;
  maxpool_forward_kernel<<<blocks(planes * h * w), kThreads, 0, ctx.stream>>>(x, y, planes, h, w);
  CAE_CUDA_CHECK_LAUNCH("maxpool_forward_kernel");
}

void maxpool2x2_backward(Context& ctx, const Shape& s, const float* x, const float* dy,
                         float* dx) {
  const int64_t planes = s[0] * s[1], h = s[2] / 2, w = s[3] / 2;
  maxpool_backward_kernel<<<blocks(planes * h * w), kThreads, 0, ctx.stream>>>(x, dy, dx, planes, h,
                                                                               w);
  CAE_CUDA_CHECK_LAUNCH("maxpool_backward_kernel");
}

void upsample2x_forward(Context& ctx, const Shape& s, const float* x, float* y) {
  const int64_t planes = s[0] * s[1], h = s[2], w = s[3];
  upsample_forward_kernel<<<blocks(planes * 4 * h * w), kThreads, 0, ctx.stream>>>(x, y, planes, h,
                                                                                   w);
  CAE_CUDA_CHECK_LAUNCH("upsample_forward_kernel");
}

void upsample2x_backward(Context& ctx, const Shape& s, const float* dy, float* dx) {
  const int64_t planes = s[0] * s[1], h = s[2], w = s[3];
  upsample_backward_kernel<<<blocks(planes * h * w), kThreads, 0, ctx.stream>>>(dy, dx, planes, h,
                                                                                w);
  CAE_CUDA_CHECK_LAUNCH("upsample_backward_kernel");
}

void sgd_step(Context& ctx, cae_tensor_s& param_tensor, cae_tensor_s& grad_tensor,
              cae_tensor_s* velocity_tensor, float learning_rate, float momentum,
              float weight_decay) {
  float* param = param_tensor.data;
  const float* grad = grad_tensor.data;
  float* velocity = velocity_tensor ? velocity_tensor->data : nullptr;
  const int64_t count = param_tensor.shape.count();
  sgd_kernel<<<blocks(count), kThreads, 0, ctx.stream>>>(param, grad, velocity, count,
                                                         learning_rate, momentum, weight_decay);
  CAE_CUDA_CHECK_LAUNCH("sgd_kernel");
}

void adam_step(Context& ctx, cae_tensor_s& param_tensor, cae_tensor_s& grad_tensor,
               cae_tensor_s& m_tensor, cae_tensor_s& v_tensor, const cae_adam_params& p) {
  float* param = param_tensor.data;
  const float* grad = grad_tensor.data;
  float* m = m_tensor.data;
  float* v = v_tensor.data;
  const int64_t count = param_tensor.shape.count();
  const float correction1 = static_cast<float>(1.0 - std::pow(double(p.beta1), double(p.step)));
  const float correction2 = static_cast<float>(1.0 - std::pow(double(p.beta2), double(p.step)));
  adam_kernel<<<blocks(count), kThreads, 0, ctx.stream>>>(param, grad, m, v, count, p, correction1,
                                                          correction2);
  CAE_CUDA_CHECK_LAUNCH("adam_kernel");
}

}  // namespace device_ops
}  // namespace cuda
}  // namespace cae_plugin
