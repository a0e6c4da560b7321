#include "parallel_copy.hpp"

#include <algorithm>
#include <cstring>

namespace cae_cuda {

ParallelCopy::ParallelCopy() {
  const unsigned cores = std::thread::hardware_concurrency();
  const unsigned workers = cores > 2 ? std::min(3u, cores - 1) : 0u;
  try {
    for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this] { worker(); });
  } catch (...) {
    // No threads (or fewer): copies simply run on the caller.
  }
}

ParallelCopy::~ParallelCopy() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  job_ready_.notify_all();
  for (std::thread& t : threads_) t.join();
}

size_t ParallelCopy::take_pieces(std::unique_lock<std::mutex>& lock) {
  size_t done = 0;
  while (next_piece_ < pieces_) {
    const size_t piece = next_piece_++;
    const size_t at = piece * piece_bytes_;
    const size_t n = std::min(piece_bytes_, bytes_ - at);
    char* to = dst_ + at;
    const char* from = src_ + at;
    lock.unlock();
    std::memcpy(to, from, n);
    lock.lock();
    ++done;
  }
  return done;
}

void ParallelCopy::worker() {
  std::unique_lock<std::mutex> lock(mutex_);
  unsigned long long seen = job_;
  for (;;) {
    job_ready_.wait(lock, [&] { return stopping_ || job_ != seen; });
    if (stopping_) return;
    seen = job_;
    finished_ += take_pieces(lock);
    if (finished_ == pieces_) job_done_.notify_all();
  }
}

void ParallelCopy::copy(void* dst, const void* src, size_t bytes) {
  if (bytes < kMinParallelBytes || threads_.empty()) {
    std::memcpy(dst, src, bytes);
    return;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  dst_ = static_cast<char*>(dst);
  src_ = static_cast<const char*>(src);
  bytes_ = bytes;
  pieces_ = 2 * (threads_.size() + 1);
  piece_bytes_ = ((bytes + pieces_ - 1) / pieces_ + 63) / 64 * 64;
  pieces_ = (bytes + piece_bytes_ - 1) / piece_bytes_;
  next_piece_ = 0;
  finished_ = 0;
  ++job_;
  job_ready_.notify_all();
  finished_ += take_pieces(lock);
  job_done_.wait(lock, [&] { return finished_ == pieces_; });
}

}  // namespace cae_cuda
