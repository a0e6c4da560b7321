// An aligned, uninitialised array that only grows. Tensors own one of exact
// size; the context keeps a few as scratch so that hot ops reuse memory
// instead of allocating on every call.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>

#include "plugin_support.hpp"

namespace cae_cpu {

// Cache-line alignment: whole vectors for SIMD loops, no false sharing between
// per-thread slices.
constexpr size_t kAlignment = 64;

// Rounds an element count up so that consecutive slices of it stay aligned.
template <class T>
constexpr size_t aligned_count(size_t count) {
  constexpr size_t per_line = kAlignment / sizeof(T);
  return (count + per_line - 1) / per_line * per_line;
}

template <class T>
class Buffer {
 public:
  T* data() const noexcept { return data_.get(); }
  size_t capacity() const noexcept { return capacity_; }

  // Makes room for at least `count` elements and returns the start. Contents
  // are not preserved when it grows. When the allocation fails, throws
  // CAE_STATUS_OUT_OF_MEMORY: "<op>: cannot allocate <size> for <what>".
  T* reserve(size_t count, const char* op, const std::string& what) {
    if (count <= capacity_) return data();
    size_t elements = aligned_count<T>(count);
    size_t bytes = elements * sizeof(T);
    data_.reset();  // release the old block first: peak memory stays at one block
    capacity_ = 0;
    void* block = std::aligned_alloc(kAlignment, bytes);
    if (!block) {
      cae_plugin::fail(CAE_STATUS_OUT_OF_MEMORY, std::string(op) + ": cannot allocate " +
                                                     cae_plugin::format_bytes(bytes) + " for " +
                                                     what);
    }
    data_.reset(static_cast<T*>(block));
    capacity_ = elements;
    return data();
  }

 private:
  struct Free {
    void operator()(T* p) const noexcept { std::free(p); }
  };
  std::unique_ptr<T, Free> data_;
  size_t capacity_ = 0;
};

}  // namespace cae_cpu
