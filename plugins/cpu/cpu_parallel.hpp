// The backend's one level of parallelism: OpenMP loops over self-contained work
// items. Each item computes its outputs alone, in a fixed order, so results do
// not depend on the thread count or on which thread ran the item (OpenBLAS
// runs single-threaded inside the items; see cpu_blas.hpp).
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>

namespace cae_cpu {

// The OpenMP thread running the caller (0 outside parallel regions); indexes
// per-thread scratch.
inline int thread_index() noexcept { return omp_get_thread_num(); }

// Calls body(i) once for every i in [0, count), spread over up to `threads`
// threads. body must not throw: allocate and validate before calling.
template <class Body>
void parallel_for(int threads, int64_t count, const Body& body) {
  const bool parallel = threads > 1 && count > 1;
#pragma omp parallel for num_threads(threads) schedule(static) if (parallel)
  for (int64_t i = 0; i < count; ++i) body(i);
}

// Element-wise work: calls body(begin, end) on blocks of `grain` elements of
// [0, count). Small inputs run on the calling thread only, where starting
// threads would cost more than the work.
constexpr int64_t kElementGrain = int64_t(1) << 15;

template <class Body>
void parallel_blocks(int threads, int64_t count, const Body& body, int64_t grain = kElementGrain) {
  const int64_t blocks = (count + grain - 1) / grain;
  parallel_for(threads, blocks, [&](int64_t block) {
    const int64_t begin = block * grain;
    body(begin, std::min(count, begin + grain));
  });
}

}  // namespace cae_cpu
