// Fork-join loops for the linear classifier's host work on the calling
// thread's kept workers (plugin/per_device.hpp) rather than on threads
// started for each call: a training step runs a few of these loops, each a
// fraction of a millisecond, where starting eight or sixteen threads took
// longer than the loop (3 ms a pass for the residuals of 45,000 rows).
// Call from the thread that owns the work, not from inside another
// run_per_device item (that one starts threads of its own).
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/parallel.hpp"
#include "plugin/per_device.hpp"

namespace cae::svm {

// for_each_fixed_part's contract (common/parallel.hpp): [0, count) in at
// most `parts` fixed ranges, body(part, begin, end) once per range, on up to
// `threads` threads; returns the number of ranges.
template <class Body>
int64_t for_each_fixed_part_kept(int threads, int64_t count, int64_t parts, const Body& body) {
  if (count <= 0) return 0;
  const int64_t n = fixed_part_count(count, parts);
  const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(threads, n));
  run_per_device(static_cast<size_t>(workers), [&](size_t w) {
    run_fixed_parts(count, n, n * int64_t(w) / workers, n * (int64_t(w) + 1) / workers, body);
  });
  return n;
}

// item(i) for i in [0, count), on up to `threads` threads.
template <class Item>
void for_each_item_kept(int threads, int64_t count, const Item& item) {
  for_each_fixed_part_kept(threads, count, count, [&](int64_t i, int64_t, int64_t) { item(i); });
}

}  // namespace cae::svm
