// SGD (heavy-ball momentum) and Adam steps, element-wise and in place, with
// the formulas of api/cae/backend.h. 4 elements per item as float4.
#pragma once

#include <cmath>
#include <cstdint>

#include "v2_elementwise_kernels.cuh"

namespace cae_v2 {

struct SgdStep {
  float* param;
  const float* grad;
  float* velocity;  // nullptr: plain SGD (momentum is 0)
  int64_t count;
  float learning_rate, momentum, weight_decay;

  int64_t largest_offset() const { return count; }
  int64_t work_items() const { return flat_quad_items(count); }

  __host__ __device__ void update(float& p, float g, float* v) const {
    g += weight_decay * p;
    if (v) {
      *v = momentum * *v + g;
      g = *v;
    }
    p -= learning_rate * g;
  }

  template <class I>
  __host__ __device__ void operator()(I item) const {
    const I e = item * 4, n = static_cast<I>(count);
    if (e + 4 <= n) {
      float4 p = load4(param + e);
      const float4 g = load4(grad + e);
      if (velocity) {
        float4 v = load4(velocity + e);
        update(p.x, g.x, &v.x);
        update(p.y, g.y, &v.y);
        update(p.z, g.z, &v.z);
        update(p.w, g.w, &v.w);
        store4(velocity + e, v);
      } else {
        update(p.x, g.x, nullptr);
        update(p.y, g.y, nullptr);
        update(p.z, g.z, nullptr);
        update(p.w, g.w, nullptr);
      }
      store4(param + e, p);
    } else {
      for (I i = e; i < n; ++i) update(param[i], grad[i], velocity ? velocity + i : nullptr);
    }
  }
};

struct AdamStep {
  float* param;
  const float* grad;
  float* m;
  float* v;
  int64_t count;
  float learning_rate, beta1, beta2, epsilon, weight_decay;
  float bias_correction1, bias_correction2;  // 1 - beta^step, computed on the host in double

  int64_t largest_offset() const { return count; }
  int64_t work_items() const { return flat_quad_items(count); }

  __host__ __device__ void update(float& p, float g, float& m1, float& m2) const {
    g += weight_decay * p;
    m1 = beta1 * m1 + (1.0f - beta1) * g;
    m2 = beta2 * m2 + (1.0f - beta2) * g * g;
    p -= learning_rate * (m1 / bias_correction1) / (sqrtf(m2 / bias_correction2) + epsilon);
  }

  template <class I>
  __host__ __device__ void operator()(I item) const {
    const I e = item * 4, n = static_cast<I>(count);
    if (e + 4 <= n) {
      float4 p = load4(param + e), m1 = load4(m + e), m2 = load4(v + e);
      const float4 g = load4(grad + e);
      update(p.x, g.x, m1.x, m2.x);
      update(p.y, g.y, m1.y, m2.y);
      update(p.z, g.z, m1.z, m2.z);
      update(p.w, g.w, m1.w, m2.w);
      store4(param + e, p);
      store4(m + e, m1);
      store4(v + e, m2);
    } else {
      for (I i = e; i < n; ++i) update(param[i], grad[i], m[i], v[i]);
    }
  }
};

}  // namespace cae_v2
