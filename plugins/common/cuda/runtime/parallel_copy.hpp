// Host memory copies of megabytes (between pageable buffers and the pinned
// staging chunks) split over a few persistent threads: one thread moves
// about 10 GB/s, far below what PCIe delivers, and in feature extraction the
// GPU waits for these copies.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace cae_cuda {

class ParallelCopy {
 public:
  ParallelCopy();
  ~ParallelCopy();
  ParallelCopy(const ParallelCopy&) = delete;
  ParallelCopy& operator=(const ParallelCopy&) = delete;

  // memcpy(dst, src, bytes); returns when all of it is done. Not reentrant:
  // one caller at a time (a context is used by one thread at a time).
  void copy(void* dst, const void* src, size_t bytes);

 private:
  static constexpr size_t kMinParallelBytes = size_t(1) << 20;
  void worker();
  // Copies pieces of the current job until none is left; returns how many it did.
  size_t take_pieces(std::unique_lock<std::mutex>& lock);

  std::mutex mutex_;
  std::condition_variable job_ready_, job_done_;
  std::vector<std::thread> threads_;
  char* dst_ = nullptr;
  const char* src_ = nullptr;
  size_t bytes_ = 0, piece_bytes_ = 0, pieces_ = 0, next_piece_ = 0, finished_ = 0;
  unsigned long long job_ = 0;
  bool stopping_ = false;
};

}  // namespace cae_cuda
