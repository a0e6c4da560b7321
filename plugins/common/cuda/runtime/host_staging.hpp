// The host <-> device copies of a context.
//
// Uploads cross the bus on a copy stream of their own, so that a batch's
// transfer runs beside the kernels already queued (the previous training
// step) instead of after them:
//   host memory -> a pinned chunk (pageable sources; the host side copied by
//   a few threads, parallel_copy.hpp) -> one of two device chunks (the copy
//   engine, on the copy stream) -> dst (a device copy queued on the
//   context's stream, after its earlier work and after the chunk's arrival).
// The host waits only for what it must: a pinned chunk's previous transfer
// before refilling it, and for a page-locked source the transfer that reads
// it (tensor_upload's contract: on return src may be reused). It never waits
// for the kernels on the context's stream, so a host that uploads the next
// batch while a step runs stays ahead of the GPU. (An upload of more than two
// chunks, 8 MiB, reuses a device chunk within itself: from its third chunk on
// it waits, on the copy stream and so on the host, for the device copies
// queued after the context's earlier work, as a transfer on that stream
// would.)
//
// Downloads: chunk k+1's DMA runs while the host copies chunk k out, so a
// large download costs about max(DMA, host copy) instead of their sum.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "device_memory.hpp"
#include "parallel_copy.hpp"

namespace cae_cuda {

class HostStaging {
 public:
  // The device chunks are counted in `tracker` (the context's memory_stats).
  explicit HostStaging(cae_plugin::cuda::MemoryTracker& tracker);
  ~HostStaging();
  HostStaging(const HostStaging&) = delete;
  HostStaging& operator=(const HostStaging&) = delete;

  // Fills device_dst in `stream`'s order (work queued on `stream` later sees
  // the data; work queued before is not disturbed). `src_page_locked`: the
  // source is page-locked memory the copy engine reads directly.
  void upload(cudaStream_t stream, float* device_dst, const float* host_src, size_t count,
              bool src_page_locked);
  // Waits for all work queued on `stream` before it, then fills host_dst.
  void download(cudaStream_t stream, float* host_dst, const float* device_src, size_t count);

 private:
  static constexpr size_t kChunkFloats = (size_t(4) << 20) / sizeof(float);
  static constexpr int kChunks = 2;

  void release() noexcept;
  // Waits until pinned chunk i is no longer read or written by a queued DMA.
  void wait_for(int i);
  // The copy stream, the device chunks and their events: made at the first
  // upload, on the device current then (the context's).
  void make_copy_lane();

  cae_plugin::cuda::MemoryTracker& tracker_;
  ParallelCopy host_copy_;
  float* chunk_[kChunks] = {};
  // The last DMA that reads or writes pinned chunk i, or writes device chunk i.
  cudaEvent_t dma_done_[kChunks] = {};
  cudaStream_t copy_stream_ = nullptr;
  DeviceMemory device_chunk_[kChunks];
  // The context stream's copy out of device chunk i: the next DMA into it waits.
  cudaEvent_t consumed_[kChunks] = {};
  unsigned next_ = 0;
};

}  // namespace cae_cuda
