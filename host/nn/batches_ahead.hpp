// Training batches prepared one step ahead on a second host thread. Where the
// host makes each batch itself (flip-crop's shifts come before the input
// transform, so neither can be cached: nn/transformed_images.hpp), the
// gathering, mirroring, shifting and contrast normalisation of batch k + 1
// run while the backend runs step k, instead of between the steps: a step
// then costs the longer of the two, not their sum.
//
// The preparation is a function of (indices, epoch, batch number) alone (the
// draws depend on the seed, epoch and batch number), so which thread runs it
// does not change a bit of the batch.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cae::nn {

class BatchesAhead {
 public:
  // Writes the batch of `indices` (its draws those of `epoch` and
  // `batch_number`) to `out`, which holds indices.size() images. Called on
  // the worker thread only: it must not use a backend context.
  using Prepare = std::function<void(const std::vector<size_t>& indices, size_t epoch,
                                     size_t batch_number, float* out)>;

  BatchesAhead(Prepare prepare, size_t floats_per_batch);
  // Waits for a batch still being prepared, then stops the worker.
  ~BatchesAhead();
  BatchesAhead(const BatchesAhead&) = delete;
  BatchesAhead& operator=(const BatchesAhead&) = delete;

  // Starts preparing the next batch. The one taken by the last take() stays
  // valid until the start() after this one.
  void start(std::vector<size_t> indices, size_t epoch, size_t batch_number);
  // Waits for the batch started last and returns its images; rethrows what
  // its preparation threw. A take() without a start() before it is a logic error.
  const float* take();

  // What the batches cost so far: seconds the worker spent preparing them,
  // and seconds take() waited for one (the part the steps did not hide).
  double preparing_seconds() const;
  double waiting_seconds() const;
  size_t batches_taken() const;

 private:
  void work();

  Prepare prepare_;
  std::vector<float> buffers_[2];
  int filling_ = 0;  // the buffer start() prepares into next
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<size_t> indices_;
  size_t epoch_ = 0;
  size_t batch_number_ = 0;
  bool pending_ = false;  // started, not yet done
  bool ready_ = false;    // done, not yet taken
  bool stopping_ = false;
  std::exception_ptr error_;
  double preparing_seconds_ = 0;  // guarded by mutex_
  double waiting_seconds_ = 0;    // the caller's thread only
  size_t batches_taken_ = 0;      // the caller's thread only
  std::thread worker_;
};

}  // namespace cae::nn
