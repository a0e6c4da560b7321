#include "cpu_context.hpp"

#include <string>

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
  cae_plugin::require(ctx != nullptr, std::string(op) + ": context is NULL");
  return *ctx;
}

cae_tensor_s* optional_tensor_arg(const cae_context_s& ctx, cae_tensor t, const char* op,
                                  const char* name) {
  if (!t) return nullptr;
  // Looking the handle up (instead of trusting it) turns a freed tensor or one
  // of another context into an error rather than a crash.
  cae_plugin::require(ctx.tensors.count(t) == 1,
                      std::string(op) + ": " + name + " is not a live tensor of this context");
  return t;
}

cae_tensor_s& tensor_arg(const cae_context_s& ctx, cae_tensor t, const char* op, const char* name) {
  cae_plugin::require(t != nullptr, std::string(op) + ": " + name + " is NULL");
  return *optional_tensor_arg(ctx, t, op, name);
}

}  // namespace cae_cpu
