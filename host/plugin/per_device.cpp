#include "plugin/per_device.hpp"

#include <exception>
#include <thread>
#include <vector>

namespace cae {

void run_per_device(size_t count, const std::function<void(size_t)>& work) {
  std::vector<std::exception_ptr> errors(count);
  auto guarded = [&](size_t i) {
    try {
      work(i);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < count; ++i) threads.emplace_back(guarded, i);
  if (count > 0) guarded(0);
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace cae
