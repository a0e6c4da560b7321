#include "v2_upload_staging.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "cuda_support.hpp"

namespace cae_v2 {

UploadStaging::UploadStaging() {
  try {
    for (size_t i = 0; i < chunks_.size(); ++i) {
      const size_t bytes = kChunkFloats * sizeof(float);
      const cudaError_t err =
          cudaHostAlloc(reinterpret_cast<void**>(&chunks_[i]), bytes, cudaHostAllocDefault);
      if (err != cudaSuccess) {
        (void)cudaGetLastError();
        chunks_[i] = nullptr;
        cae_plugin::fail(
            err == cudaErrorMemoryAllocation ? CAE_STATUS_OUT_OF_MEMORY : CAE_STATUS_DEVICE_ERROR,
            "cudaHostAlloc of " + cae_plugin::format_bytes(bytes) +
                " for upload staging failed: " + cudaGetErrorString(err));
      }
      CAE_CUDA_CHECK(cudaEventCreateWithFlags(&chunk_free_[i], cudaEventDisableTiming));
    }
  } catch (...) {
    release();
    throw;
  }
}

UploadStaging::~UploadStaging() { release(); }

void UploadStaging::release() noexcept {
  for (size_t i = 0; i < chunks_.size(); ++i) {
    if (chunk_free_[i]) {
      cudaEventSynchronize(chunk_free_[i]);
      cudaEventDestroy(chunk_free_[i]);
      chunk_free_[i] = nullptr;
    }
    if (chunks_[i]) {
      cudaFreeHost(chunks_[i]);
      chunks_[i] = nullptr;
    }
  }
}

void UploadStaging::copy_to_device(cudaStream_t stream, float* dst, const float* src,
                                   size_t count) {
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(kChunkFloats, count - done);
    const size_t chunk = next_++ % chunks_.size();
    // The chunk's previous DMA must have read it before we overwrite it.
    CAE_CUDA_CHECK(cudaEventSynchronize(chunk_free_[chunk]));
    std::memcpy(chunks_[chunk], src + done, n * sizeof(float));
    CAE_CUDA_CHECK(cudaMemcpyAsync(dst + done, chunks_[chunk], n * sizeof(float),
                                   cudaMemcpyHostToDevice, stream));
    CAE_CUDA_CHECK(cudaEventRecord(chunk_free_[chunk], stream));
    done += n;
  }
}

}  // namespace cae_v2
