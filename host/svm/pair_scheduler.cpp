#include "svm/pair_scheduler.hpp"

#include <algorithm>

#include "svm/svm_error.hpp"

namespace cae::svm {

PairScheduler::PairScheduler(uint64_t memory_cap, int total_pairs, SolverKind solver,
                             Progress progress, KernelValues values)
    : cap_(memory_cap),
      total_(total_pairs),
      solver_(solver),
      progress_(std::move(progress)),
      values_(values) {}

void PairScheduler::report_progress(std::unique_lock<std::mutex>& lock) {
  if (!progress_) return;
  // The callback may be slow (a terminal redraw): never hold the lock over
  // it. Several threads report (each producer, the coordinator): one at a
  // time, each with the count as it is when its turn comes, so the callback
  // sees the counts in order and its last call has the final count (with
  // the count read before the turn, a call for 5 could end after the call
  // for 6). Every report takes its turn, even one with nothing new, so the
  // coordinator's last one returns only after any call still running.
  lock.unlock();
  {
    std::lock_guard<std::mutex> turn(reporting_);
    int done = 0;
    {
      std::lock_guard<std::mutex> count(mutex_);
      done = static_cast<int>(solutions_.size());
    }
    if (done > reported_) {
      reported_ = done;
      progress_(done, total_);
    }
  }
  lock.lock();
}

int PairScheduler::best_pooled(int64_t rows) const {
  int best = -1;
  for (size_t i = 0; i < pool_.size(); ++i) {
    if (pool_[i]->capacity_rows() < rows) continue;
    if (best < 0 || pool_[i]->bytes() < pool_[static_cast<size_t>(best)]->bytes()) {
      best = static_cast<int>(i);
    }
  }
  return best;
}

void PairScheduler::hold(uint64_t bytes) {
  held_bytes_ += bytes;
  peak_bytes_ = std::max(peak_bytes_, held_bytes_);
}

template <class Need>
int PairScheduler::wait_for_room(std::unique_lock<std::mutex>& lock, int64_t reuse_rows,
                                 const Need& need, const std::string& what) {
  for (;;) {
    if (error_) return -2;
    const int reuse = reuse_rows > 0 ? best_pooled(reuse_rows) : -1;
    if (held_bytes_ + need(reuse) <= cap_) return reuse;
    // Make room: drop a pooled workspace this job will not use, and the one it
    // would reuse only when no running pair can free memory.
    int victim = -1;
    for (size_t i = 0; i < pool_.size() && victim < 0; ++i) {
      if (static_cast<int>(i) != reuse) victim = static_cast<int>(i);
    }
    if (victim < 0 && in_flight_ == 0) victim = reuse;
    if (victim >= 0) {
      held_bytes_ -= pool_[static_cast<size_t>(victim)]->bytes();
      pool_.erase(pool_.begin() + victim);
      continue;
    }
    if (in_flight_ == 0) {
      throw SvmError(what + " needs more memory than the SVM memory cap allows");
    }
    changed_.wait(lock);
    report_progress(lock);
  }
}

bool PairScheduler::reserve(Job& job) {
  const int64_t rows = job.rows.size();
  std::unique_lock<std::mutex> lock(mutex_);
  report_progress(lock);
  auto need = [&](int reuse) {
    return job.solver_bytes + (reuse >= 0 ? 0 : PairWorkspace::bytes_for(rows, solver_, values_));
  };
  const int reuse =
      wait_for_room(lock, rows, need, "a class pair of " + std::to_string(rows) + " rows");
  if (reuse == -2) return false;
  const uint64_t bytes = need(reuse);
  if (reuse >= 0) {
    job.workspace = std::move(pool_[static_cast<size_t>(reuse)]);
    pool_.erase(pool_.begin() + reuse);
  } else {
    job.workspace = std::make_unique<PairWorkspace>(rows, solver_, values_);
  }
  hold(bytes);
  peak_in_flight_ = std::max(peak_in_flight_, ++in_flight_);
  return true;
}

bool PairScheduler::reserve_block(uint64_t bytes) {
  std::unique_lock<std::mutex> lock(mutex_);
  report_progress(lock);
  if (wait_for_room(
          lock, 0, [&](int) { return bytes; }, "a diagonal kernel block") == -2) {
    return false;
  }
  hold(bytes);
  return true;
}

void PairScheduler::give_back_block(uint64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    held_bytes_ -= std::min(bytes, held_bytes_);
  }
  changed_.notify_all();
}

void PairScheduler::submit(Job job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // After a failure nobody solves it: `job` is dropped when this returns,
    // outside the lock (its diagonal blocks' deleters take it).
    if (error_) return;
    queue_.push_back(std::move(job));
    ++submitted_;
  }
  work_.notify_one();
}

void PairScheduler::close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }
  work_.notify_all();
}

void PairScheduler::wait_for_workers() {
  std::unique_lock<std::mutex> lock(mutex_);
  report_progress(lock);
  while (!error_ && static_cast<int>(solutions_.size()) < submitted_) {
    changed_.wait(lock);
    report_progress(lock);
  }
  // The last pairs may have completed while a report above had the lock
  // released (their notifications found nobody waiting): the loop then ends
  // without a turn that counted them. One more turn reports the final count.
  report_progress(lock);
}

bool PairScheduler::next(Job& job) {
  std::unique_lock<std::mutex> lock(mutex_);
  work_.wait(lock, [&] { return error_ || closed_ || !queue_.empty(); });
  if (error_ || queue_.empty()) return false;
  job = std::move(queue_.front());
  queue_.pop_front();
  return true;
}

void PairScheduler::complete(PairSolution solution, Job job) {
  // The pair's last use of a diagonal block frees it, and its deleter takes
  // the lock: let go of them first.
  for (SharedDiagonal& block : job.diagonal) block.reset();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    held_bytes_ -= std::min(job.solver_bytes, held_bytes_);
    if (job.workspace) pool_.push_back(std::move(job.workspace));
    --in_flight_;
    solutions_.push_back(std::move(solution));
  }
  changed_.notify_all();
}

void PairScheduler::fail(std::exception_ptr error) {
  std::deque<Job> dropped;  // destroyed after the lock: their blocks' deleters take it
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = std::move(error);
    dropped.swap(queue_);  // the workspaces nobody will solve
  }
  changed_.notify_all();
  work_.notify_all();
}

void PairScheduler::release_workspaces() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& workspace : pool_) held_bytes_ -= std::min(workspace->bytes(), held_bytes_);
  pool_.clear();
}

bool PairScheduler::failed() {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_ != nullptr;
}

void PairScheduler::rethrow_if_failed() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (error_) std::rethrow_exception(error_);
}

}  // namespace cae::svm
