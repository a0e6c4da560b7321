// run_per_device: every item runs, each index on the same thread from call
// to call, the caller's item on the caller, failures rethrown after all
// items finished, and calls from inside an item.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "plugin/per_device.hpp"

namespace cae {

TEST_CASE("run_per_device keeps one thread per index between calls") {
  constexpr size_t kItems = 4;
  std::vector<std::thread::id> first(kItems), second(kItems);
  run_per_device(kItems, [&](size_t i) { first[i] = std::this_thread::get_id(); });
  run_per_device(kItems, [&](size_t i) { second[i] = std::this_thread::get_id(); });
  CHECK(bool(first[0] == std::this_thread::get_id()));
  CHECK(std::set<std::thread::id>(first.begin(), first.end()).size() == kItems);
  CHECK(bool(first == second));
  // Fewer items, then more: the indices keep their threads.
  std::vector<std::thread::id> fewer(2), more(6);
  run_per_device(2, [&](size_t i) { fewer[i] = std::this_thread::get_id(); });
  run_per_device(6, [&](size_t i) { more[i] = std::this_thread::get_id(); });
  CHECK(bool(fewer[1] == first[1]));
  CHECK(bool(more[3] == first[3]));
  CHECK(std::set<std::thread::id>(more.begin(), more.end()).size() == 6);
}

TEST_CASE("run_per_device runs the items at once") {
  // Each item waits until all have started: run one after another, this
  // would never finish (bounded by the timeout below).
  std::atomic<int> started{0};
  std::atomic<bool> timed_out{false};
  run_per_device(3, [&](size_t) {
    ++started;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (started.load() < 3) {
      if (std::chrono::steady_clock::now() > until) {
        timed_out = true;
        return;
      }
      std::this_thread::yield();
    }
  });
  CHECK_FALSE(timed_out.load());
}

TEST_CASE("run_per_device rethrows the lowest failing index after every item finished") {
  std::atomic<int> finished{0};
  auto work = [&](size_t i) {
    if (i == 2) throw std::runtime_error("item 2");
    if (i == 1) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      ++finished;
      throw std::runtime_error("item 1");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ++finished;
  };
  CHECK_THROWS_WITH_AS(run_per_device(4, work), "item 1", std::runtime_error);
  CHECK(finished.load() == 3);
  // The workers survive a failure.
  std::atomic<int> ran{0};
  run_per_device(4, [&](size_t) { ++ran; });
  CHECK(ran.load() == 4);
}

TEST_CASE("run_per_device may be called from inside an item") {
  std::atomic<int> inner{0};
  run_per_device(3, [&](size_t) { run_per_device(2, [&](size_t) { ++inner; }); });
  CHECK(inner.load() == 6);
}

}  // namespace cae
