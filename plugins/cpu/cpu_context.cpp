#include "cpu_context.hpp"

#include <string>

#include "tensor_arguments.hpp"

namespace cae_cpu {

ThreadSlices Scratch::per_thread(int threads, size_t floats_per_thread, const char* op) {
  ThreadSlices slices;
  slices.stride = aligned_count<float>(floats_per_thread);
  slices.base =
      thread_columns.reserve(slices.stride * static_cast<size_t>(threads), op,
                             "scratch matrices of " + std::to_string(threads) + " threads");
  return slices;
}

cae_context_s& context_arg(cae_context ctx, const char* op) {
  return cae_plugin::context_argument(ctx, op);
}

cae_tensor_s* optional_tensor_arg(const cae_context_s& ctx, cae_tensor t, const char* op,
                                  const char* name) {
  // Looking the handle up (instead of trusting it) turns a freed tensor or one
  // of another context into an error rather than a crash.
  return cae_plugin::optional_tensor_argument(ctx, t, op, name);
}

cae_tensor_s& tensor_arg(const cae_context_s& ctx, cae_tensor t, const char* op, const char* name) {
  return *cae_plugin::tensor_argument(ctx, t, op, name);
}

}  // namespace cae_cpu
