// Runs one piece of work per device at once: item 0 on the calling thread,
// the others on threads of their own, joined before returning. Each context
// is used only by the thread of its index (the ABI's threading rule).
#pragma once

#include <cstddef>
#include <functional>

namespace cae {

// Calls work(i) for i in [0, count). Rethrows the exception of the lowest
// index that failed, after every thread has finished.
void run_per_device(size_t count, const std::function<void(size_t)>& work);

}  // namespace cae
