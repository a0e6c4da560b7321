#pragma once
// Ranks of a group of processes played by threads of one test: each thread
// holds its own cpu context and a ThreadRank of one shared ThreadGroupState,
// whose all-reduce sums the ranks' tensors in rank order (as a real group's
// collectives give every rank the same values).

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "plugin/process_group.hpp"

namespace cae::svm::test {

class ThreadGroupState {
 public:
  explicit ThreadGroupState(int32_t world) : world_(world), parts_(size_t(world)) {}

  // Rank `rank`'s contribution; returns the sum once every rank has given its own.
  std::vector<float> exchange(int32_t rank, std::vector<float> mine) {
    std::unique_lock<std::mutex> lock(mutex_);
    // Wait for the previous round's readers to leave.
    changed_.wait(lock, [&] { return readers_ == 0; });
    parts_[size_t(rank)] = std::move(mine);
    const uint64_t round = round_;
    if (++arrived_ == world_) {
      sum_.assign(parts_[0].size(), 0.0f);
      for (const std::vector<float>& part : parts_) {
        for (size_t i = 0; i < sum_.size() && i < part.size(); ++i) sum_[i] += part[i];
      }
      arrived_ = 0;
      readers_ = world_;
      ++round_;
      changed_.notify_all();
    } else {
      changed_.wait(lock, [&] { return round_ != round; });
    }
    std::vector<float> out = sum_;
    if (--readers_ == 0) changed_.notify_all();
    return out;
  }

 private:
  const int32_t world_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::vector<float>> parts_;
  std::vector<float> sum_;
  int32_t arrived_ = 0;
  int32_t readers_ = 0;
  uint64_t round_ = 0;
};

class ThreadRank : public ProcessGroup {
 public:
  ThreadRank(ThreadGroupState& state, int32_t rank, int32_t world)
      : ProcessGroup(rank, world), state_(state) {}
  bool backend_collectives() const override { return false; }
  void all_reduce_sum(const std::vector<Tensor*>& tensors, float scale) override {
    std::vector<float> flat;
    for (Tensor* t : tensors) {
      const std::vector<float> values = t->download();
      flat.insert(flat.end(), values.begin(), values.end());
    }
    const std::vector<float> sum = state_.exchange(rank(), std::move(flat));
    size_t at = 0;
    for (Tensor* t : tensors) {
      const size_t n = size_t(t->count());
      std::vector<float> part(sum.begin() + long(at), sum.begin() + long(at + n));
      for (float& v : part) v *= scale;
      t->upload(part);
      at += n;
    }
  }

 private:
  ThreadGroupState& state_;
};

// Runs body(rank, group) on `world` threads at once and joins them.
inline void run_ranks(int32_t world, const std::function<void(int32_t, ProcessGroup&)>& body) {
  ThreadGroupState state(world);
  std::vector<std::thread> threads;
  for (int32_t r = 0; r < world; ++r) {
    threads.emplace_back([&, r] {
      ThreadRank rank(state, r, world);
      body(r, rank);
    });
  }
  for (std::thread& t : threads) t.join();
}

}  // namespace cae::svm::test
