#include "nn/batches_ahead.hpp"

#include <chrono>
#include <stdexcept>
#include <utility>

namespace cae::nn {

BatchesAhead::BatchesAhead(Prepare prepare, size_t floats_per_batch)
    : prepare_(std::move(prepare)) {
  buffers_[0].resize(floats_per_batch);
  buffers_[1].resize(floats_per_batch);
  worker_ = std::thread([this] { work(); });
}

BatchesAhead::~BatchesAhead() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

void BatchesAhead::start(std::vector<size_t> indices, size_t epoch, size_t batch_number) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (pending_ || ready_)
    throw std::logic_error("BatchesAhead::start: the last batch was not taken");
  indices_ = std::move(indices);
  epoch_ = epoch;
  batch_number_ = batch_number;
  pending_ = true;
  lock.unlock();
  changed_.notify_all();
}

const float* BatchesAhead::take() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!pending_ && !ready_) throw std::logic_error("BatchesAhead::take: no batch was started");
  const auto asked = std::chrono::steady_clock::now();
  changed_.wait(lock, [this] { return ready_; });
  waiting_seconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
  ++batches_taken_;
  ready_ = false;
  const int taken = filling_;
  filling_ = 1 - filling_;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  return buffers_[taken].data();
}

double BatchesAhead::preparing_seconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return preparing_seconds_;
}

double BatchesAhead::waiting_seconds() const { return waiting_seconds_; }

size_t BatchesAhead::batches_taken() const { return batches_taken_; }

void BatchesAhead::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || pending_; });
    // A batch started before the destructor ran is still made: take() may
    // not come, but the caller's buffers outlive the worker either way.
    if (!pending_) return;
    // The buffer being filled is neither the one the caller holds (taken
    // last, filled the time before) nor touched by the caller until take().
    float* out = buffers_[filling_].data();
    const std::vector<size_t> indices = std::move(indices_);
    const size_t epoch = epoch_, batch_number = batch_number_;
    lock.unlock();
    std::exception_ptr error;
    const auto began = std::chrono::steady_clock::now();
    try {
      prepare_(indices, epoch, batch_number, out);
    } catch (...) {
      error = std::current_exception();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    lock.lock();
    preparing_seconds_ += seconds;
    error_ = error;
    pending_ = false;
    ready_ = true;
    changed_.notify_all();
  }
}

}  // namespace cae::nn
