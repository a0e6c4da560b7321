// Runs one piece of work per device at once: item 0 on the calling thread,
// the others on threads of their own, joined before returning. Each context
// is used only by the thread of its index (the ABI's threading rule).
//
// The threads are kept between calls (per calling thread, item i always on
// the same one) instead of being started and joined on every call: a
// data-parallel training step calls this twice, and on fast GPUs starting
// two threads per step, each making its device current again, is a
// visible share of a step of a millisecond.
#pragma once

#include <cstddef>
#include <functional>

namespace cae {

// Calls work(i) for i in [0, count). Rethrows the exception of the lowest
// index that failed, after every item has finished. work may itself call
// run_per_device (its thread then has workers of its own).
void run_per_device(size_t count, const std::function<void(size_t)>& work);

}  // namespace cae
