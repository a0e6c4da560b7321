// The CPU backend's context and tensor types (the ABI's opaque handles) and
// the argument checks that turn handles into them.
#pragma once

#include <cae/backend.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "cpu_buffer.hpp"
#include "plugin_support.hpp"

struct cae_tensor_s {
  cae_plugin::Shape shape;
  cae_cpu::Buffer<float> storage;  // dense float32, the boundary layout (NCHW / OIHW / row-major)

  float* data() const noexcept { return storage.data(); }
  int64_t count() const noexcept { return shape.count(); }
  uint64_t bytes() const noexcept { return static_cast<uint64_t>(count()) * sizeof(float); }
};

namespace cae_cpu {

// Per-thread slices of one scratch block: slice t belongs to OpenMP thread t.
struct ThreadSlices {
  float* base = nullptr;
  size_t stride = 0;  // floats between slices (aligned)
  float* of(int thread) const noexcept { return base + stride * static_cast<size_t>(thread); }
};

// Memory the ops reuse from call to call (never shrinks; freed with the context).
struct Scratch {
  Buffer<float> thread_columns;  // im2col / col2im matrices, one slice per thread
  Buffer<float> partial_sums;    // per-slot partial weight gradients (conv2d_backward)
  Buffer<float> weights;         // weights rearranged for an output-side lowering
  Buffer<double> doubles;        // bias sums, loss partial sums, squared norms

  // A slice of at least `floats_per_thread` floats for each of `threads` threads.
  ThreadSlices per_thread(int threads, size_t floats_per_thread, const char* op);
};

}  // namespace cae_cpu

struct cae_context_s : cae_plugin::ContextBase {
  int threads = 1;  // OpenMP threads every op may use

  // Every live tensor, owned here so that destroy frees what the host forgot.
  std::unordered_map<cae_tensor_s*, std::unique_ptr<cae_tensor_s>> tensors;
  uint64_t bytes_in_use = 0;  // tensor bytes now (memory_stats)
  uint64_t peak_bytes = 0;    // and at most since create

  bool timer_running = false;
  std::chrono::steady_clock::time_point timer_begin;

  cae_cpu::Scratch scratch;
};

namespace cae_cpu {

// Argument checks shared by every entry point; failures are
// CAE_STATUS_INVALID_ARGUMENT messages that start with the op's name.
cae_context_s& context_arg(cae_context ctx, const char* op);
cae_tensor_s& tensor_arg(const cae_context_s& ctx, cae_tensor t, const char* op, const char* name);
// Like tensor_arg, but NULL is allowed and gives nullptr.
cae_tensor_s* optional_tensor_arg(const cae_context_s& ctx, cae_tensor t, const char* op,
                                  const char* name);

}  // namespace cae_cpu
