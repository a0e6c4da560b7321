// BatchesAhead: each batch taken is the one started last, made from its own
// indices and batch number, in a buffer the caller keeps until the start()
// after next; a preparation's exception reaches take(); misuse is refused.
#include "nn/batches_ahead.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace cae::nn {
namespace {

// Image i of batch b holds 1000 * b + its index, so a batch mixed up with
// another (or written half) shows.
void stamp(const std::vector<size_t>& indices, size_t /*epoch*/, size_t batch_number, float* out) {
  for (size_t i = 0; i < indices.size(); ++i) out[i] = float(1000 * batch_number + indices[i]);
}

TEST_CASE("batches come back in order, each from its own indices, the previous one kept") {
  BatchesAhead ahead(stamp, 3);
  ahead.start({1, 2, 3}, 0, 0);
  const float* first = ahead.take();
  ahead.start({7, 8}, 0, 1);  // a shorter last batch
  // The first batch is untouched while the second is made.
  CHECK(std::vector<float>(first, first + 3) == std::vector<float>{1, 2, 3});
  const float* second = ahead.take();
  CHECK(second != first);
  CHECK(std::vector<float>(second, second + 2) == std::vector<float>{1007, 1008});
  for (size_t b = 2; b < 50; ++b) {
    ahead.start({b, b + 1, b + 2}, 0, b);
    const float* images = ahead.take();
    CHECK(std::vector<float>(images, images + 3) ==
          std::vector<float>{float(1001 * b), float(1001 * b + 1), float(1001 * b + 2)});
  }
}

TEST_CASE("the preparation runs on another thread while the caller goes on") {
  std::atomic<bool> released{false};
  const std::thread::id caller = std::this_thread::get_id();
  std::thread::id worker;
  BatchesAhead ahead(
      [&](const std::vector<size_t>& indices, size_t epoch, size_t batch_number, float* out) {
        worker = std::this_thread::get_id();
        while (!released.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        stamp(indices, epoch, batch_number, out);
      },
      1);
  ahead.start({5}, 0, 2);
  // start() returned although the preparation waits for this thread.
  released = true;
  CHECK(*ahead.take() == 2005.0f);
  CHECK(worker != caller);
}

TEST_CASE("the time spent preparing and the time take() waited are counted") {
  BatchesAhead ahead(
      [](const std::vector<size_t>& indices, size_t epoch, size_t batch_number, float* out) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        stamp(indices, epoch, batch_number, out);
      },
      1);
  CHECK(ahead.batches_taken() == 0);
  CHECK(ahead.preparing_seconds() == 0.0);
  // Taken at once: the caller waits for the whole preparation.
  ahead.start({1}, 0, 0);
  ahead.take();
  CHECK(ahead.waiting_seconds() >= 0.015);
  CHECK(ahead.preparing_seconds() >= 0.015);
  // Taken after it is done: nothing more to wait for.
  ahead.start({2}, 0, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const double waited = ahead.waiting_seconds();
  ahead.take();
  CHECK(ahead.waiting_seconds() - waited < 0.015);
  CHECK(ahead.preparing_seconds() >= 0.035);
  CHECK(ahead.batches_taken() == 2);
}

TEST_CASE("a preparation's exception is thrown by take, and the next batch works") {
  BatchesAhead ahead(
      [](const std::vector<size_t>& indices, size_t epoch, size_t batch_number, float* out) {
        if (batch_number == 1) throw std::runtime_error("image 4 unreadable");
        stamp(indices, epoch, batch_number, out);
      },
      1);
  ahead.start({4}, 0, 1);
  CHECK_THROWS_WITH_AS(ahead.take(), "image 4 unreadable", std::runtime_error);
  ahead.start({4}, 0, 2);
  CHECK(*ahead.take() == 2004.0f);
}

TEST_CASE("take without start, and start before the last batch is taken, are refused") {
  BatchesAhead ahead(stamp, 1);
  CHECK_THROWS_AS(ahead.take(), std::logic_error);
  ahead.start({0}, 0, 0);
  CHECK_THROWS_AS(ahead.start({1}, 0, 1), std::logic_error);
  CHECK(*ahead.take() == 0.0f);
}

TEST_CASE("destroyed with a batch still being made, it waits for it") {
  std::atomic<int> made{0};
  {
    BatchesAhead ahead(
        [&](const std::vector<size_t>& indices, size_t epoch, size_t batch_number, float* out) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          stamp(indices, epoch, batch_number, out);
          ++made;
        },
        1);
    ahead.start({0}, 0, 0);
  }
  CHECK(made.load() == 1);
}

}  // namespace
}  // namespace cae::nn
