// Element-wise ops: ReLU forward and backward, SGD, and Adam over up to 16
// tensors per launch. Four elements per thread as float4 (every tensor starts
// on a 256-byte boundary), the ragged tail one by one.
#include <algorithm>

#include "kernel_queries.cuh"
#include "runtime_launch.cuh"
#include "runtime_ops.hpp"

namespace cae_cuda {

namespace {

__device__ __forceinline__ float4 load4(const float* p) {
  return *reinterpret_cast<const float4*>(p);
}
__device__ __forceinline__ void store4(float* p, float4 v) { *reinterpret_cast<float4*>(p) = v; }
__device__ __forceinline__ float relu(float v) { return v > 0.0f ? v : 0.0f; }
__device__ __forceinline__ float pass_if(float y, float g) { return y > 0.0f ? g : 0.0f; }

unsigned quad_blocks(int64_t count) {
  return cae_plugin::cuda::grid_for((count + 3) / 4, kThreads);
}

__global__ void __launch_bounds__(kThreads)
    relu_forward_kernel(const float* x, float* y, int64_t count) {
  begin_after_prior_kernels();
  const int64_t quads = count / 4, step = int64_t(gridDim.x) * kThreads;
  for (int64_t q = int64_t(blockIdx.x) * kThreads + threadIdx.x; q < quads; q += step) {
    const float4 v = load4(x + 4 * q);
    store4(y + 4 * q, make_float4(relu(v.x), relu(v.y), relu(v.z), relu(v.w)));
  }
  if (blockIdx.x == 0 && threadIdx.x < count - 4 * quads) {
    const int64_t i = 4 * quads + threadIdx.x;
    y[i] = relu(x[i]);
  }
}

__global__ void __launch_bounds__(kThreads)
    relu_backward_kernel(const float* y, const float* dy, float* dx, int64_t count) {
  begin_after_prior_kernels();
  const int64_t quads = count / 4, step = int64_t(gridDim.x) * kThreads;
  for (int64_t q = int64_t(blockIdx.x) * kThreads + threadIdx.x; q < quads; q += step) {
    const float4 a = load4(y + 4 * q), g = load4(dy + 4 * q);
    store4(dx + 4 * q,
           make_float4(pass_if(a.x, g.x), pass_if(a.y, g.y), pass_if(a.z, g.z), pass_if(a.w, g.w)));
  }
  if (blockIdx.x == 0 && threadIdx.x < count - 4 * quads) {
    const int64_t i = 4 * quads + threadIdx.x;
    dx[i] = pass_if(y[i], dy[i]);
  }
}

__global__ void __launch_bounds__(kThreads)
    sgd_kernel(float* param, const float* grad, float* velocity, int64_t count, float rate,
               const float* run_rate, float momentum, float weight_decay) {
  begin_after_prior_kernels();
  const float lr = run_rate ? *run_rate : rate;
  const int64_t step = int64_t(gridDim.x) * kThreads;
  for (int64_t i = int64_t(blockIdx.x) * kThreads + threadIdx.x; i < count; i += step) {
    float p = param[i];
    float g = grad[i] + weight_decay * p;
    if (velocity) {
      g = momentum * velocity[i] + g;
      velocity[i] = g;
    }
    param[i] = p - lr * g;
  }
}

// Adam over several tensors: tensor t owns blocks [first_block[t], first_block[t+1]),
// each block kAdamSpan consecutive elements of it.
constexpr int64_t kAdamSpan = kThreads * 4 * 4;

struct AdamLaunch {
  AdamTensor tensor[kMaxBatchedAdam];
  uint32_t first_block[kMaxBatchedAdam + 1];
  int32_t tensors;
};

// The scalars that may change from step to step: the tensor's own, or the
// run's from device memory (AdamTensor::run_scalars).
struct AdamStepScalars {
  float learning_rate, bias_correction1, bias_correction2;
};

__device__ __forceinline__ AdamStepScalars step_scalars(const AdamTensor& t) {
  if (t.run_scalars == nullptr) return {t.learning_rate, t.bias_correction1, t.bias_correction2};
  return {t.run_scalars[0], t.run_scalars[1], t.run_scalars[2]};
}

__device__ __forceinline__ void adam_update(const AdamTensor& t, const AdamStepScalars& s,
                                            float& p, float g, float& m, float& v) {
  g += t.weight_decay * p;
  m = t.beta1 * m + (1.0f - t.beta1) * g;
  v = t.beta2 * v + (1.0f - t.beta2) * g * g;
  p -= s.learning_rate * (m / s.bias_correction1) / (sqrtf(v / s.bias_correction2) + t.epsilon);
}

__global__ void __launch_bounds__(kThreads) adam_kernel(const AdamLaunch job) {
  begin_after_prior_kernels();
  int which = 0;
  while (which + 1 < job.tensors && blockIdx.x >= job.first_block[which + 1]) ++which;
  const AdamTensor& t = job.tensor[which];
  const AdamStepScalars s = step_scalars(t);
  const int64_t begin = int64_t(blockIdx.x - job.first_block[which]) * kAdamSpan;
  const int64_t end = min(begin + kAdamSpan, t.count);
  for (int64_t i = begin + 4 * threadIdx.x; i < end; i += 4 * kThreads) {
    if (i + 4 <= end) {
      float4 p = load4(t.param + i), m = load4(t.m + i), v = load4(t.v + i);
      const float4 g = load4(t.grad + i);
      adam_update(t, s, p.x, g.x, m.x, v.x);
      adam_update(t, s, p.y, g.y, m.y, v.y);
      adam_update(t, s, p.z, g.z, m.z, v.z);
      adam_update(t, s, p.w, g.w, m.w, v.w);
      store4(t.param + i, p);
      store4(t.m + i, m);
      store4(t.v + i, v);
    } else {
      for (int64_t j = i; j < end; ++j) adam_update(t, s, t.param[j], t.grad[j], t.m[j], t.v[j]);
    }
  }
}

}  // namespace

bool kernels_wait_for_prior_kernels() {
  // Every runtime kernel is compiled with the same architectures: one stands for all.
  return cae_plugin::cuda::ptx_version_of(relu_forward_kernel) >= 90;
}

void relu_forward(Context& ctx, const float* x, float* y, int64_t count) {
  launch(ctx, "relu_forward_kernel", relu_forward_kernel, quad_blocks(count), kThreads, 0, x, y,
         count);
}

void relu_backward(Context& ctx, const float* y, const float* dy, float* dx, int64_t count) {
  launch(ctx, "relu_backward_kernel", relu_backward_kernel, quad_blocks(count), kThreads, 0, y, dy,
         dx, count);
}

void sgd_step(Context& ctx, float* param, const float* grad, float* velocity, int64_t count,
              float learning_rate, const float* run_learning_rate, float momentum,
              float weight_decay) {
  launch(ctx, "sgd_kernel", sgd_kernel, cae_plugin::cuda::grid_for(count, kThreads), kThreads, 0,
         param, grad, velocity, count, learning_rate, run_learning_rate, momentum, weight_decay);
}

void adam_steps(Context& ctx, const AdamTensor* tensors, int count) {
  for (int first = 0; first < count; first += kMaxBatchedAdam) {
    AdamLaunch job{};
    job.tensors = std::min(kMaxBatchedAdam, count - first);
    uint32_t blocks = 0;
    for (int t = 0; t < job.tensors; ++t) {
      job.tensor[t] = tensors[first + t];
      job.first_block[t] = blocks;
      const int64_t spans = (tensors[first + t].count + kAdamSpan - 1) / kAdamSpan;
      if (spans > 0x7fffffffLL - blocks) {
        cae_plugin::fail(CAE_STATUS_UNSUPPORTED, "adam_step: tensor too large");
      }
      blocks += static_cast<uint32_t>(spans);
    }
    job.first_block[job.tensors] = blocks;
    launch(ctx, "adam_kernel", adam_kernel, blocks, kThreads, 0, job);
  }
}

}  // namespace cae_cuda
