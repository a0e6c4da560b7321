// Does a kernel launched with programmatic dependent launch still wait for a
// cudaStreamWaitEvent queued before it? Stream A: a slow kernel sets flag = round.
// Stream B: a fast kernel, then a wait on A's event, then a PDL kernel that reads
// flag after griddepcontrol.wait. Any read older than the round is a violation.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void slow_set(int* flag, int round, long long spin) {
  long long start = clock64();
  while (clock64() - start < spin) {}
  __threadfence();
  *(volatile int*)flag = round;
}
__global__ void fast(int* scratch) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
  scratch[threadIdx.x] += 1;
}
__global__ void reader(const int* flag, int* seen) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  seen[0] = *(volatile const int*)flag;
}

int main() {
  int *flag, *seen, *scratch;
  cudaMalloc(&flag, 4); cudaMalloc(&seen, 4); cudaMalloc(&scratch, 1024);
  cudaMemset(flag, 0, 4); cudaMemset(scratch, 0, 1024);
  cudaStream_t a, b; cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking); cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  cudaEvent_t ev; cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
  int violations = 0, rounds = 200;
  for (int round = 1; round <= rounds; ++round) {
    fast<<<1, 256, 0, b>>>(scratch);          // b's previous kernel, quick
    slow_set<<<1, 1, 0, a>>>(flag, round, 2000000);  // ~1 ms
    cudaEventRecord(ev, a);
    cudaStreamWaitEvent(b, ev, 0);
    cudaLaunchConfig_t cfg = {}; cfg.gridDim = 1; cfg.blockDim = 1; cfg.stream = b;
    cudaLaunchAttribute attr; attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1; cfg.attrs = &attr; cfg.numAttrs = 1;
    cudaLaunchKernelEx(&cfg, reader, (const int*)flag, seen);
    int host = -1; cudaMemcpyAsync(&host, seen, 4, cudaMemcpyDeviceToHost, b); cudaStreamSynchronize(b);
    cudaStreamSynchronize(a);
    if (host != round) ++violations;
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("PDL kernel after a cross-stream event wait: %d of %d rounds read a stale flag (%s)\n",
         violations, rounds, cudaGetErrorString(e));
  return violations != 0;
}
