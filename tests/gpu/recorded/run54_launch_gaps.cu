// How much time passes between dependent kernels on one stream, and how much of it
// programmatic dependent launch (PDL) and CUDA-graph replay remove. A chain shaped like
// a batch-64 training step: 60 kernels, each a memory pass of 0.5-64 MB.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

template <bool kPdl>
__global__ void pass(const float4* __restrict__ in, float4* __restrict__ out, long n) {
  if (kPdl) asm volatile("griddepcontrol.wait;" ::: "memory");
  long i = blockIdx.x * long(blockDim.x) + threadIdx.x;
  long stride = long(gridDim.x) * blockDim.x;
  for (; i < n; i += stride) {
    float4 v = in[i];
    v.x = v.x * 0.5f + 1.f; v.y = v.y * 0.5f + 1.f; v.z = v.z * 0.5f + 1.f; v.w = v.w * 0.5f + 1.f;
    out[i] = v;
  }
  if (kPdl) asm volatile("griddepcontrol.launch_dependents;");
}

int main() {
  const long kMax = 16L << 20;  // float4s: 256 MB
  float4 *a, *b;
  CHECK(cudaMalloc(&a, kMax * 16)); CHECK(cudaMalloc(&b, kMax * 16));
  CHECK(cudaMemset(a, 0, kMax * 16)); CHECK(cudaMemset(b, 0, kMax * 16));
  // bytes moved per kernel (read + write), cycling like a step's ops
  const long sizes_kb[] = {512, 2048, 8192, 32768, 65536, 4096, 1024, 16384, 131072, 256};
  std::vector<long> n;
  for (int k = 0; k < 60; ++k) n.push_back(sizes_kb[k % 10] * 1024 / 32);
  cudaStream_t s; CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  auto chain = [&](bool pdl) -> cudaError_t {
    for (size_t k = 0; k < n.size(); ++k) {
      cudaLaunchConfig_t cfg = {};
      cfg.gridDim = dim3(unsigned(std::min<long>((n[k] + 255) / 256, 132 * 8)));
      cfg.blockDim = dim3(256); cfg.stream = s;
      cudaLaunchAttribute attr[1];
      attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
      attr[0].val.programmaticStreamSerializationAllowed = 1;
      cfg.attrs = attr; cfg.numAttrs = pdl ? 1 : 0;
      const float4* in = (k % 2) ? b : a; float4* out = (k % 2) ? a : b;
      cudaError_t e = pdl ? cudaLaunchKernelEx(&cfg, pass<true>, in, out, n[k])
                          : cudaLaunchKernelEx(&cfg, pass<false>, in, out, n[k]);
      if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
  };
  cudaEvent_t e0, e1; CHECK(cudaEventCreate(&e0)); CHECK(cudaEventCreate(&e1));
  // the sum of the kernels alone: each timed by itself, synchronised
  float alone = 0;
  for (size_t k = 0; k < n.size(); ++k) {
    float best = 1e9;
    for (int r = 0; r < 5; ++r) {
      cudaLaunchConfig_t cfg = {};
      cfg.gridDim = dim3(unsigned(std::min<long>((n[k] + 255) / 256, 132 * 8)));
      cfg.blockDim = dim3(256); cfg.stream = s;
      CHECK(cudaEventRecord(e0, s));
      CHECK(cudaLaunchKernelEx(&cfg, pass<false>, (const float4*)a, b, n[k]));
      CHECK(cudaEventRecord(e1, s)); CHECK(cudaEventSynchronize(e1));
      float ms; CHECK(cudaEventElapsedTime(&ms, e0, e1)); best = std::min(best, ms);
    }
    alone += best;
  }
  printf("sum of 60 kernels timed alone (best of 5 each): %.3f ms\n", alone);
  for (int variant = 0; variant < 4; ++variant) {
    bool pdl = variant % 2, graph = variant / 2;
    cudaGraphExec_t exec = nullptr;
    if (graph) {
      cudaGraph_t g;
      CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
      CHECK(chain(pdl));
      CHECK(cudaStreamEndCapture(s, &g));
      CHECK(cudaGraphInstantiate(&exec, g, 0));
    }
    float best = 1e9;
    for (int rep = 0; rep < 7; ++rep) {
      CHECK(cudaEventRecord(e0, s));
      for (int i = 0; i < 20; ++i) { if (graph) CHECK(cudaGraphLaunch(exec, s)); else CHECK(chain(pdl)); }
      CHECK(cudaEventRecord(e1, s)); CHECK(cudaEventSynchronize(e1));
      float ms; CHECK(cudaEventElapsedTime(&ms, e0, e1)); best = std::min(best, ms / 20);
    }
    printf("chain of 60, %-6s %-5s: %.3f ms per chain, %.2f us per kernel above the sum alone\n",
           graph ? "graph" : "stream", pdl ? "PDL" : "plain", best, (best - alone) * 1000 / 60);
  }
  return 0;
}
