#include "host_staging.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "cuda_support.hpp"

namespace cae_cuda {

HostStaging::HostStaging(cae_plugin::cuda::MemoryTracker& tracker) : tracker_(tracker) {
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
  // Queued transfers must finish before their memory goes.
  if (copy_stream_) cudaStreamSynchronize(copy_stream_);
  for (int i = 0; i < kChunks; ++i) {
    if (consumed_[i]) {
      cudaEventSynchronize(consumed_[i]);
      cudaEventDestroy(consumed_[i]);
      consumed_[i] = nullptr;
    }
    if (dma_done_[i]) {
      cudaEventSynchronize(dma_done_[i]);
      cudaEventDestroy(dma_done_[i]);
      dma_done_[i] = nullptr;
    }
    device_chunk_[i].reset();
    if (chunk_[i]) cudaFreeHost(chunk_[i]);
    chunk_[i] = nullptr;
  }
  if (copy_stream_) cudaStreamDestroy(copy_stream_);
  copy_stream_ = nullptr;
}

void HostStaging::make_copy_lane() {
  // Each piece made once: after a failure (out of device memory) the next
  // upload completes the lane without leaking what the first attempt made.
  // Events first: release() waits on whichever exist.
  for (int i = 0; i < kChunks; ++i) {
    if (!consumed_[i]) {
      CAE_CUDA_CHECK(cudaEventCreateWithFlags(&consumed_[i], cudaEventDisableTiming));
    }
  }
  for (int i = 0; i < kChunks; ++i) {
    if (!device_chunk_[i].as()) {
      device_chunk_[i] = DeviceMemory(kChunkFloats * sizeof(float), tracker_, "the upload staging");
    }
  }
  CAE_CUDA_CHECK(cudaStreamCreateWithFlags(&copy_stream_, cudaStreamNonBlocking));
}

void HostStaging::wait_for(int i) { CAE_CUDA_CHECK(cudaEventSynchronize(dma_done_[i])); }

void HostStaging::upload(cudaStream_t stream, float* device_dst, const float* host_src,
                         size_t count, bool src_page_locked) {
  if (!copy_stream_) make_copy_lane();
  cudaEvent_t last_dma = nullptr;
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(kChunkFloats, count - done);
    const size_t bytes = n * sizeof(float);
    const int i = static_cast<int>(next_++ % kChunks);
    const float* from = host_src + done;
    if (!src_page_locked) {
      wait_for(i);
      host_copy_.copy(chunk_[i], from, bytes);
      from = chunk_[i];
    }
    float* device_chunk = device_chunk_[i].as();
    CAE_CUDA_CHECK(cudaStreamWaitEvent(copy_stream_, consumed_[i], 0));
    CAE_CUDA_CHECK(
        cudaMemcpyAsync(device_chunk, from, bytes, cudaMemcpyHostToDevice, copy_stream_));
    CAE_CUDA_CHECK(cudaEventRecord(dma_done_[i], copy_stream_));
    CAE_CUDA_CHECK(cudaStreamWaitEvent(stream, dma_done_[i], 0));
    CAE_CUDA_CHECK(
        cudaMemcpyAsync(device_dst + done, device_chunk, bytes, cudaMemcpyDeviceToDevice, stream));
    CAE_CUDA_CHECK(cudaEventRecord(consumed_[i], stream));
    last_dma = dma_done_[i];
    done += n;
  }
  // The copy stream runs in order: its last transfer done, the source is read.
  if (src_page_locked && last_dma) CAE_CUDA_CHECK(cudaEventSynchronize(last_dma));
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
