#include <algorithm>

#include "runtime_launch.cuh"
#include "v4_graph_scalars.hpp"

namespace cae_v4 {
namespace {

constexpr int kChunk = 64;  // floats per launch: the kernel's arguments stay small

struct ScalarChunk {
  float values[kChunk];
  int count;
};

__global__ void write_scalars_kernel(float* device, const ScalarChunk chunk) {
  cae_cuda::begin_after_prior_kernels();
  if (int(threadIdx.x) < chunk.count) device[threadIdx.x] = chunk.values[threadIdx.x];
}

}  // namespace

void write_run_scalars(cae_cuda::Context& ctx, float* device, const std::vector<float>& values) {
  for (size_t first = 0; first < values.size(); first += kChunk) {
    ScalarChunk chunk{};
    chunk.count = int(std::min<size_t>(kChunk, values.size() - first));
    std::copy_n(values.data() + first, chunk.count, chunk.values);
    cae_cuda::launch(ctx, "v4 write_scalars_kernel", write_scalars_kernel, 1, kChunk, 0,
                     device + first, chunk);
  }
}

}  // namespace cae_v4
