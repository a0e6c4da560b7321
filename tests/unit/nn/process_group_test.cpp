// Groups of processes through the host's file fallback (the cpu backend has no
// ABI 1.2 members), with one thread standing in for each process: every rank
// gets the scaled sum, bit for bit what the in-process host exchange gives;
// the id file and the exchange files are gone afterwards; a rank that waits
// in vain and a stale id file fail with one clear message.
#include "plugin/group_rendezvous.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

#include "backends.hpp"
#include "io/scratch_dir.hpp"
#include "plugin/device_group.hpp"
#include "plugin/per_device.hpp"

namespace cae {
namespace {

using Sums = std::vector<std::vector<std::vector<float>>>;  // [rank][tensor][element]

const std::vector<int64_t> kCounts{5, 12, 1};

// Rank r's tensor i: values that differ by rank, tensor and element, with
// sums that are not exact in float (so the order of the sum shows).
std::vector<float> values_of(size_t rank, size_t tensor) {
  std::vector<float> values;
  for (int64_t e = 0; e < kCounts[tensor]; ++e) {
    values.push_back(0.1f * float(rank + 1) + 0.37f * float(e) - 1.5f * float(tensor));
  }
  return values;
}

// One all-reduce over `ranks` contexts; `reduce_all` sums every rank's lists.
Sums run(int ranks, const std::function<void(std::vector<std::vector<Tensor*>>&,
                                             std::vector<std::unique_ptr<Context>>&)>& reduce_all) {
  auto contexts = test::make_contexts(test::cpu_table(), ranks);
  std::vector<std::vector<Tensor>> tensors(static_cast<size_t>(ranks));
  std::vector<std::vector<Tensor*>> lists(static_cast<size_t>(ranks));
  for (size_t r = 0; r < size_t(ranks); ++r) {
    for (size_t i = 0; i < kCounts.size(); ++i) {
      tensors[r].push_back(contexts[r]->alloc({kCounts[i]}));
      tensors[r].back().upload(values_of(r, i));
    }
    for (Tensor& t : tensors[r]) lists[r].push_back(&t);
  }
  reduce_all(lists, contexts);
  Sums result(static_cast<size_t>(ranks));
  for (size_t r = 0; r < size_t(ranks); ++r) {
    for (Tensor& t : tensors[r]) result[r].push_back(t.download());
  }
  return result;
}

Rendezvous rendezvous(const test::ScratchDir& dir, int32_t rank, int32_t world, int ms) {
  Rendezvous r;
  r.id_file = dir.file("group.id");
  r.rank = rank;
  r.world = world;
  r.timeout = std::chrono::milliseconds(ms);
  return r;
}

TEST_CASE("three ranks through files get what one process's host exchange gives") {
  test::ScratchDir dir;
  bool backend_collectives = true;
  const Sums by_files = run(3, [&](auto& lists, auto& contexts) {
    run_per_device(3, [&](size_t r) {
      auto group = join_process_group(*contexts[r], rendezvous(dir, int32_t(r), 3, 20000));
      if (r == 0) backend_collectives = group->backend_collectives();
      group->all_reduce_sum(lists[r], 0.25f);
      group->all_reduce_sum({}, 1.0f);  // a second step, an empty one
    });
  });
  CHECK_FALSE(backend_collectives);
  const Sums in_process = run(3, [](auto& lists, auto& contexts) {
    DeviceGroup(test::pointers(contexts), /*force_host_exchange=*/true).all_reduce_sum(lists, 0.25f);
  });
  CHECK(by_files == in_process);
  for (size_t i = 0; i < kCounts.size(); ++i) {
    for (int64_t e = 0; e < kCounts[i]; ++e) {
      const float expected =
          (0.0f + values_of(0, i)[e] + values_of(1, i)[e] + values_of(2, i)[e]) * 0.25f;
      CHECK(by_files[1][i][size_t(e)] == expected);
    }
  }
  CHECK(dir.listing().empty());  // no id file, no exchange file
}

TEST_CASE("a rank whose partners never come fails with one line, and leaves no file") {
  test::ScratchDir dir;
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  CHECK_THROWS_WITH_AS(join_process_group(*contexts[0], rendezvous(dir, 1, 2, 100)),
                       doctest::Contains("rank 1: no group id in"), std::runtime_error);
  CHECK_THROWS_WITH_AS(join_process_group(*contexts[0], rendezvous(dir, 0, 2, 100)),
                       doctest::Contains("rank 0: rank 1 wrote no"), std::runtime_error);
  CHECK(dir.listing().empty());
}

TEST_CASE("rank 0 refuses an id file that is already there") {
  test::ScratchDir dir;
  test::write_bytes(dir.file("group.id"), "stale");
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  CHECK_THROWS_WITH_AS(join_process_group(*contexts[0], rendezvous(dir, 0, 2, 100)),
                       doctest::Contains("already exists"), std::runtime_error);
  CHECK(dir.listing() == "group.id");  // not ours to remove
}

}  // namespace
}  // namespace cae
