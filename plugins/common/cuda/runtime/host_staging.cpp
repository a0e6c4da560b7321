#include "host_staging.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "cuda_support.hpp"

namespace cae_cuda {

HostStaging::HostStaging() {
  try {
    for (int i = 0; i < kChunks; ++i) {
      const size_t bytes = kChunkFloats * sizeof(float);
      const cudaError_t err = cudaMallocHost(reinterpret_cast<void**>(&chunk_[i]), bytes);
      if (err != cudaSuccess) {
        (void)cudaGetLastError();
        chunk_[i] = nullptr;
        cae_plugin::fail(
            err == cudaErrorMemoryAllocation ? CAE_STATUS_OUT_OF_MEMORY : CAE_STATUS_DEVICE_ERROR,
            "cudaMallocHost of " + cae_plugin::format_bytes(bytes) +
                " (transfer staging) failed: " + cudaGetErrorString(err));
      }
      CAE_CUDA_CHECK(cudaEventCreateWithFlags(&dma_done_[i], cudaEventDisableTiming));
    }
  } catch (...) {
    release();
    throw;
  }
}

HostStaging::~HostStaging() { release(); }

void HostStaging::release() noexcept {
  for (int i = 0; i < kChunks; ++i) {
    if (dma_done_[i]) {
      cudaEventSynchronize(dma_done_[i]);
      cudaEventDestroy(dma_done_[i]);
      dma_done_[i] = nullptr;
    }
    if (chunk_[i]) cudaFreeHost(chunk_[i]);
    chunk_[i] = nullptr;
  }
}

void HostStaging::wait_for(int i) { CAE_CUDA_CHECK(cudaEventSynchronize(dma_done_[i])); }

void HostStaging::upload(cudaStream_t stream, float* device_dst, const float* host_src,
                         size_t count) {
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(kChunkFloats, count - done);
    const int i = static_cast<int>(next_++ % kChunks);
    wait_for(i);
    host_copy_.copy(chunk_[i], host_src + done, n * sizeof(float));
    CAE_CUDA_CHECK(cudaMemcpyAsync(device_dst + done, chunk_[i], n * sizeof(float),
                                   cudaMemcpyHostToDevice, stream));
    CAE_CUDA_CHECK(cudaEventRecord(dma_done_[i], stream));
    done += n;
  }
}

void HostStaging::download(cudaStream_t stream, float* host_dst, const float* device_src,
                           size_t count) {
  const size_t pieces = (count + kChunkFloats - 1) / kChunkFloats;
  auto queue_piece = [&](size_t piece) {
    const int i = static_cast<int>(piece % kChunks);
    wait_for(i);  // an upload's DMA may still read this chunk
    const size_t at = piece * kChunkFloats, n = std::min(kChunkFloats, count - at);
    CAE_CUDA_CHECK(cudaMemcpyAsync(chunk_[i], device_src + at, n * sizeof(float),
                                   cudaMemcpyDeviceToHost, stream));
    CAE_CUDA_CHECK(cudaEventRecord(dma_done_[i], stream));
  };
  if (pieces == 0) {
    CAE_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  queue_piece(0);
  for (size_t piece = 0; piece < pieces; ++piece) {
    if (piece + 1 < pieces) queue_piece(piece + 1);
    const int i = static_cast<int>(piece % kChunks);
    wait_for(i);  // also reports errors of earlier asynchronous work
    const size_t at = piece * kChunkFloats, n = std::min(kChunkFloats, count - at);
    host_copy_.copy(host_dst + at, chunk_[i], n * sizeof(float));
  }
}

}  // namespace cae_cuda
