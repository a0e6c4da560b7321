// Copies between pageable host memory and the device through two pinned
// chunks (the host side of each copied by a few threads, see
// parallel_copy.hpp), so that neither direction drains the stream more
// than the ABI asks:
//   - upload: the host copies src into a free chunk and queues its DMA; it
//     waits only for the DMA queued with that chunk two chunks ago. On return
//     src has been read completely (tensor_upload's contract).
//   - download: chunk k+1's DMA runs while the host copies chunk k out, so a
//     large download costs about max(DMA, host copy) instead of their sum.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "parallel_copy.hpp"

namespace cae_cuda {

class HostStaging {
 public:
  HostStaging();
  ~HostStaging();
  HostStaging(const HostStaging&) = delete;
  HostStaging& operator=(const HostStaging&) = delete;

  void upload(cudaStream_t stream, float* device_dst, const float* host_src, size_t count);
  // Waits for all work queued on `stream` before it, then fills host_dst.
  void download(cudaStream_t stream, float* host_dst, const float* device_src, size_t count);

 private:
  static constexpr size_t kChunkFloats = (size_t(4) << 20) / sizeof(float);
  static constexpr int kChunks = 2;

  void release() noexcept;
  // Waits until chunk i is no longer read or written by a queued DMA.
  void wait_for(int i);

  ParallelCopy host_copy_;
  float* chunk_[kChunks] = {};
  cudaEvent_t dma_done_[kChunks] = {};
  unsigned next_ = 0;
};

}  // namespace cae_cuda
