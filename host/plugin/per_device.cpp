#include "plugin/per_device.hpp"

#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace cae {
namespace {

// Item i of `work`; its exception, if any, kept in `error`.
void run_item(const std::function<void(size_t)>& work, size_t i, std::exception_ptr& error) noexcept {
  try {
    work(i);
  } catch (...) {
    error = std::current_exception();
  }
}

// One kept thread: it runs the item it is given and waits for the next.
class Worker {
 public:
  Worker() : thread_([this] { serve(); }) {}
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Starts item `index` of `work`; its exception, if any, lands in *error.
  void start(const std::function<void(size_t)>* work, size_t index, std::exception_ptr* error) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      work_ = work;
      index_ = index;
      error_ = error;
      busy_ = true;
    }
    changed_.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !busy_; });
  }

 private:
  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return busy_ || stopping_; });
      if (stopping_ && !busy_) return;
      const std::function<void(size_t)>* work = work_;
      const size_t index = index_;
      std::exception_ptr* error = error_;
      lock.unlock();
      run_item(*work, index, *error);
      lock.lock();
      busy_ = false;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  const std::function<void(size_t)>* work_ = nullptr;
  size_t index_ = 0;
  std::exception_ptr* error_ = nullptr;
  bool busy_ = false;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the state above exists
};

}  // namespace

void run_per_device(size_t count, const std::function<void(size_t)>& work) {
  // This thread's workers, worker i - 1 for item i; they end with the thread.
  thread_local std::vector<std::unique_ptr<Worker>> workers;
  // A call made from inside an item running on this thread (work calling
  // run_per_device again on the calling thread's item 0) must not reuse the
  // workers still busy with the outer call: it starts threads of its own.
  thread_local bool in_call = false;
  std::vector<std::exception_ptr> errors(count);
  if (in_call) {
    std::vector<std::thread> threads;
    for (size_t i = 1; i < count; ++i) {
      threads.emplace_back(run_item, std::cref(work), i, std::ref(errors[i]));
    }
    if (count > 0) run_item(work, 0, errors[0]);
    for (std::thread& t : threads) t.join();
  } else {
    while (workers.size() + 1 < count) workers.push_back(std::make_unique<Worker>());
    for (size_t i = 1; i < count; ++i) workers[i - 1]->start(&work, i, &errors[i]);
    in_call = true;
    if (count > 0) run_item(work, 0, errors[0]);
    in_call = false;
    for (size_t i = 1; i < count; ++i) workers[i - 1]->wait();
  }
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace cae
