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

}  // namespace cae
