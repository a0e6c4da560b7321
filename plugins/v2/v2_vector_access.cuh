// Aligned vector loads and stores. Every array v2 touches starts on a 256-byte
// boundary (cudaMalloc, ScratchPlan), and the bodies use these only at
// offsets that are multiples of the vector width.
#pragma once

#include <cuda_runtime.h>

namespace cae_v2 {

__host__ __device__ inline float4 load4(const float* p) {
  return *reinterpret_cast<const float4*>(p);
}
__host__ __device__ inline void store4(float* p, float4 v) { *reinterpret_cast<float4*>(p) = v; }
__host__ __device__ inline float2 load2(const float* p) {
  return *reinterpret_cast<const float2*>(p);
}
__host__ __device__ inline void store2(float* p, float2 v) { *reinterpret_cast<float2*>(p) = v; }

}  // namespace cae_v2
