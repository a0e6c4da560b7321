// A minimal fork-join loop for the host's data-parallel loops (the SVM's
// standardising and voting, input noise): contiguous chunks of an index range
// on short-lived std::threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace cae {

// `requested` when positive, else the machine's hardware threads (at least 1).
inline int resolve_thread_count(int requested) {
  if (requested > 0) return requested;
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware > 0 ? static_cast<int>(hardware) : 1;
}

// Calls body(begin, end) for disjoint chunks covering [0, count), on up to
// `threads` threads (the caller's thread takes the first chunk). Rethrows the
// first exception a chunk threw, after every thread has joined.
template <class Body>
void parallel_chunks(int threads, int64_t count, const Body& body) {
  if (count <= 0) return;
  const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(threads, count));
  const int64_t chunk = (count + workers - 1) / workers;
  std::vector<std::exception_ptr> errors(static_cast<size_t>(workers));
  auto run = [&](int64_t w) {
    const int64_t begin = w * chunk;
    const int64_t end = std::min(count, begin + chunk);
    if (begin >= end) return;
    try {
      body(begin, end);
    } catch (...) {
      errors[static_cast<size_t>(w)] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int64_t w = 1; w < workers; ++w) pool.emplace_back(run, w);
  run(0);
  for (std::thread& thread : pool) thread.join();
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

// The fixed ranges of for_each_fixed_part and its kept-thread twin
// (svm/kept_threads.hpp): how many ranges [0, count) is cut into for `parts`
// asked (at most `parts`, at least one row each; count > 0), and
// body(part, begin, end) for ranges [first, last) of those n.
inline int64_t fixed_part_count(int64_t count, int64_t parts) {
  return std::max<int64_t>(1, std::min(parts, count));
}
template <class Body>
void run_fixed_parts(int64_t count, int64_t n, int64_t first, int64_t last, const Body& body) {
  for (int64_t part = first; part < last; ++part) {
    body(part, count * part / n, count * (part + 1) / n);
  }
}

// For sums that must not depend on the thread count (the ranks of a group
// must agree to the last bit): [0, count) is cut into `parts` fixed ranges
// (at most `parts`, at least one row each), body(part, begin, end) runs once
// per range on up to `threads` threads, and the caller merges the parts'
// results in part order. Returns the number of ranges.
template <class Body>
int64_t for_each_fixed_part(int threads, int64_t count, int64_t parts, const Body& body) {
  if (count <= 0) return 0;
  const int64_t n = fixed_part_count(count, parts);
  parallel_chunks(threads, n, [&](int64_t first, int64_t last) {
    run_fixed_parts(count, n, first, last, body);
  });
  return n;
}

}  // namespace cae
