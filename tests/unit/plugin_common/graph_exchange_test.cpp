// GroupExchange (plugins/common/graph_exchange.hpp): the members of a group
// meet at each exchange, the last one sums for all, a barrier that no
// member passes alone, and a failed member that wakes the others instead of
// leaving them waiting.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "graph_exchange.hpp"
#include "plugin_support.hpp"

namespace {

constexpr int32_t kMembers = 3;

cae_group fake_group() { return reinterpret_cast<cae_group>(uintptr_t(0x1000)); }
cae_tensor fake_tensor(int member) { return reinterpret_cast<cae_tensor>(uintptr_t(0x2000 + 16 * member)); }

// What the fake all-reduce saw: each call's tensors and scale.
std::mutex seen_mutex;
std::vector<std::vector<cae_tensor>> seen_calls;
std::vector<float> seen_scales;
cae_status fake_reduce(cae_group, const cae_tensor* tensors, int32_t per_context, float scale) {
  std::lock_guard<std::mutex> lock(seen_mutex);
  CHECK(per_context == 1);
  seen_calls.emplace_back(tensors, tensors + kMembers);
  seen_scales.push_back(scale);
  return CAE_STATUS_OK;
}
cae_status failing_reduce(cae_group, const cae_tensor*, int32_t, float) {
  return CAE_STATUS_DEVICE_ERROR;
}
const char* fake_last_error(cae_context) { return "the device went away"; }

template <class Body>
void on_members(const Body& body) {
  std::vector<std::thread> threads;
  for (int32_t m = 0; m < kMembers; ++m) threads.emplace_back(body, m);
  for (std::thread& t : threads) t.join();
}

}  // namespace

TEST_CASE("the last member sums every member's tensor once, then all return") {
  seen_calls.clear();
  seen_scales.clear();
  cae_plugin::GroupExchange exchange(fake_group(), kMembers);
  for (int round = 0; round < 4; ++round) {
    on_members([&](int32_t m) {
      exchange.all_reduce(m, fake_tensor(m), 0.5f, fake_reduce, fake_last_error, nullptr);
    });
  }
  REQUIRE(seen_calls.size() == 4);
  for (const std::vector<cae_tensor>& call : seen_calls) {
    for (int32_t m = 0; m < kMembers; ++m) CHECK(call[size_t(m)] == fake_tensor(m));
  }
  CHECK(seen_scales == std::vector<float>(4, 0.5f));
}

TEST_CASE("meet returns to no member before every member has arrived") {
  cae_plugin::GroupExchange exchange(fake_group(), kMembers);
  std::atomic<int> arrived{0};
  std::atomic<int> early{0};
  for (int round = 1; round <= 5; ++round) {
    on_members([&](int32_t m) {
      if (m == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));  // one comes late
      ++arrived;
      exchange.meet(m);
      if (arrived.load() < round * kMembers) ++early;
    });
  }
  CHECK(early.load() == 0);
}

TEST_CASE("a member that fails wakes the waiting members and fails every later exchange") {
  cae_plugin::GroupExchange exchange(fake_group(), kMembers);
  std::vector<std::string> errors(kMembers);
  on_members([&](int32_t m) {
    try {
      if (m == 2) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the others wait first
        exchange.fail_for_everyone("member 2: a binding of another batch");
        return;
      }
      exchange.meet(m);
    } catch (const cae_plugin::Error& e) {
      errors[size_t(m)] = e.what();
    }
  });
  CHECK(errors[0].find("member 2: a binding of another batch") != std::string::npos);
  CHECK(errors[1].find("member 2: a binding of another batch") != std::string::npos);
  CHECK_THROWS_AS(exchange.meet(0), cae_plugin::Error);
  CHECK_THROWS_AS(
      exchange.all_reduce(1, fake_tensor(1), 1.0f, fake_reduce, fake_last_error, nullptr),
      cae_plugin::Error);
}

TEST_CASE("a failed all-reduce fails every member, naming the backend's error") {
  cae_plugin::GroupExchange exchange(fake_group(), kMembers);
  std::vector<std::string> errors(kMembers);
  on_members([&](int32_t m) {
    try {
      exchange.all_reduce(m, fake_tensor(m), 1.0f, failing_reduce, fake_last_error, nullptr);
    } catch (const cae_plugin::Error& e) {
      errors[size_t(m)] = e.what();
    }
  });
  for (const std::string& e : errors) CHECK(e.find("the device went away") != std::string::npos);
}
