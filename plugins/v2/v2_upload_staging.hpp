// Host-to-device copies that honour tensor_upload's contract ("src may be
// reused as soon as the call returns") without draining the stream.
//
// cudaMemcpyAsync from pageable memory only "might be synchronous", so the
// data goes through two pinned chunks instead: the host copies src into a
// chunk (after that chunk's previous DMA has finished), then queues the DMA
// on the stream. When the call returns, src has been read completely, and the
// host waited at most for work queued two chunks (usually two uploads) ago.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>

namespace cae_v2 {

class UploadStaging {
 public:
  UploadStaging();
  ~UploadStaging();
  UploadStaging(const UploadStaging&) = delete;
  UploadStaging& operator=(const UploadStaging&) = delete;

  // Queues dst[0..count) = src[0..count) on `stream`; src is free on return.
  void copy_to_device(cudaStream_t stream, float* dst, const float* src, size_t count);

 private:
  static constexpr size_t kChunkFloats = (size_t(4) << 20) / sizeof(float);  // 4 MiB
  void release() noexcept;

  std::array<float*, 2> chunks_{};
  std::array<cudaEvent_t, 2> chunk_free_{};  // recorded after each chunk's DMA
  size_t next_ = 0;
};

}  // namespace cae_v2
