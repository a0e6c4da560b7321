#include "svm/pair_scheduler.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "svm/svm_error.hpp"

using namespace cae::svm;

namespace {

const std::vector<int64_t> kFiveRows{0, 1, 2, 3, 4};
const std::vector<int64_t> kTenRows{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
constexpr uint64_t kSolverBytes = 100;

// A job for a pair of 2 * side.size() rows.
PairScheduler::Job job_for(const std::vector<int64_t>& side) {
  PairScheduler::Job job;
  job.rows.rows[0] = &side;
  job.rows.rows[1] = &side;
  job.solver_bytes = kSolverBytes;
  return job;
}

}  // namespace

TEST_CASE("PairScheduler: a job waits until it fits, then reuses the finished pair's workspace") {
  const uint64_t one_pair = PairWorkspace::bytes_for(20, SolverKind::Libsvm) + kSolverBytes;
  PairScheduler scheduler(one_pair + one_pair / 2, 2, SolverKind::Libsvm, nullptr);
  PairScheduler::Job first = job_for(kTenRows);
  REQUIRE(scheduler.reserve(first));
  REQUIRE(first.workspace);
  CHECK(first.workspace->capacity_rows() == 20);
  const PairWorkspace* first_workspace = first.workspace.get();

  PairScheduler::Job second = job_for(kTenRows);
  std::atomic<bool> second_reserved{false};
  std::thread coordinator([&] { second_reserved = scheduler.reserve(second); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(second_reserved.load());
  scheduler.complete(PairSolution{}, std::move(first));
  coordinator.join();
  CHECK(second_reserved.load());
  CHECK(second.workspace.get() == first_workspace);
  CHECK(scheduler.peak_bytes() <= one_pair + one_pair / 2);
  CHECK(scheduler.peak_pairs_in_flight() == 1);
}

TEST_CASE("PairScheduler: a pooled workspace too small to reuse is dropped to make room") {
  const uint64_t big_pair = PairWorkspace::bytes_for(20, SolverKind::Libsvm) + kSolverBytes;
  PairScheduler scheduler(big_pair + 10, 2, SolverKind::Libsvm, nullptr);
  PairScheduler::Job small = job_for(kFiveRows);
  REQUIRE(scheduler.reserve(small));
  scheduler.complete(PairSolution{}, std::move(small));
  PairScheduler::Job big = job_for(kTenRows);
  REQUIRE(scheduler.reserve(big));
  CHECK(big.workspace->capacity_rows() == 20);
  CHECK(scheduler.peak_bytes() <= big_pair + 10);
}

TEST_CASE("PairScheduler: a job that can never fit is an error, not a hang") {
  PairScheduler scheduler(1000, 1, SolverKind::Libsvm, nullptr);
  PairScheduler::Job job = job_for(kTenRows);
  CHECK_THROWS_AS(scheduler.reserve(job), SvmError);
}

TEST_CASE("PairScheduler: a worker failure wakes the coordinator and is rethrown") {
  PairScheduler scheduler(PairWorkspace::bytes_for(20, SolverKind::Libsvm) + kSolverBytes, 2,
                          SolverKind::Libsvm, nullptr);
  PairScheduler::Job first = job_for(kTenRows);
  REQUIRE(scheduler.reserve(first));
  std::thread worker([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    scheduler.fail(std::make_exception_ptr(std::runtime_error("libsvm broke")));
  });
  PairScheduler::Job second = job_for(kTenRows);
  CHECK_FALSE(scheduler.reserve(second));
  worker.join();
  PairScheduler::Job job;
  CHECK_FALSE(scheduler.next(job));
  CHECK_THROWS_WITH(scheduler.rethrow_if_failed(), "libsvm broke");
}

TEST_CASE("PairScheduler: progress reaches total on the coordinator's thread") {
  std::vector<int> seen;
  const auto coordinator = std::this_thread::get_id();
  bool same_thread = true;
  PairScheduler scheduler(uint64_t{1} << 20, 2, SolverKind::Libsvm, [&](int done, int total) {
    same_thread = same_thread && std::this_thread::get_id() == coordinator && total == 2;
    seen.push_back(done);
  });
  std::thread worker([&] {
    PairScheduler::Job job;
    while (scheduler.next(job)) scheduler.complete(PairSolution{}, std::move(job));
  });
  for (int i = 0; i < 2; ++i) {
    PairScheduler::Job job = job_for(kFiveRows);
    REQUIRE(scheduler.reserve(job));
    scheduler.submit(std::move(job));
  }
  scheduler.close();
  scheduler.wait_for_workers();
  worker.join();
  scheduler.release_workspaces();
  CHECK(same_thread);
  REQUIRE_FALSE(seen.empty());
  CHECK(seen.back() == 2);
  CHECK(scheduler.take_solutions().size() == 2);
}

TEST_CASE(
    "PairScheduler: a shared block is held until given back, and a reservation waits for it") {
  PairScheduler scheduler(1000, 1, SolverKind::Smo, nullptr);
  REQUIRE(scheduler.reserve_block(600));
  // A pair in flight lets the next reservation wait instead of failing.
  PairScheduler::Job pair = job_for(kFiveRows);
  pair.solver_bytes = 10;
  REQUIRE(scheduler.reserve(pair));  // 10 rows: a 200-byte SMO workspace + 10
  std::atomic<bool> reserved{false};
  std::thread producer([&] { reserved = scheduler.reserve_block(600); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(reserved.load());  // 600 + 210 + 600 > 1000
  scheduler.give_back_block(600);
  producer.join();
  CHECK(reserved.load());
  CHECK(scheduler.peak_bytes() == 810);
  scheduler.complete(PairSolution{}, std::move(pair));
}

TEST_CASE("PairScheduler: a shared block that can never fit is an error, not a hang") {
  PairScheduler scheduler(1000, 1, SolverKind::Smo, nullptr);
  REQUIRE(scheduler.reserve_block(600));
  CHECK_THROWS_WITH_AS(scheduler.reserve_block(600),
                       doctest::Contains("a diagonal kernel block needs more memory"), SvmError);
}
