// The diagonal kernel blocks K(c, c) of the one-vs-one training, each
// computed once and shared by the class's pairs.
//
// Every pair (a, b) needs K(a,a) and K(b,b); computing them per pair would
// repeat each of them (classes - 1) times. A block is made by one producer
// thread, handed to every pair job of its class, and freed (its bytes given
// back to the memory cap through the deleter) when the last of those jobs is
// done: this table drops its own reference as soon as the last pair of the
// class has taken its copy.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "svm/kernel_values.hpp"

namespace cae::svm {

// [rows, rows] kernel values, row-major, float32 or unorm16, uninitialised
// (the producer overwrites them). mmap'ed rather than new'ed, like
// PairWorkspace: freeing a block gives its memory back to the system at once.
// From the heap, glibc would keep freed blocks of this size for reuse (its
// mmap threshold rises to the size of the first one freed), and the process's
// peak would keep them through the prediction that follows training.
class DiagonalBlock {
 public:
  // Throws SvmError when out of memory, or for values not resolved.
  DiagonalBlock(int64_t rows, KernelValues values);
  ~DiagonalBlock();
  DiagonalBlock(const DiagonalBlock&) = delete;
  DiagonalBlock& operator=(const DiagonalBlock&) = delete;

  int64_t rows() const { return rows_; }
  KernelValues values() const { return values_; }
  // The block as SMO reads it: the one of its stored type, nullptr for the other.
  const float* float32() const { return as<float>(KernelValues::Float32); }
  const uint16_t* unorm16() const { return as<uint16_t>(KernelValues::Unorm16); }
  // Where the producer writes it, before it is shared (as a const block).
  float* float32_out() { return as<float>(KernelValues::Float32); }
  uint16_t* unorm16_out() { return as<uint16_t>(KernelValues::Unorm16); }

 private:
  template <class Value>
  Value* as(KernelValues stored) const {
    return values_ == stored ? static_cast<Value*>(memory_) : nullptr;
  }

  int64_t rows_ = 0;
  KernelValues values_ = KernelValues::Float32;
  void* memory_ = nullptr;
};
using SharedDiagonal = std::shared_ptr<const DiagonalBlock>;

class DiagonalBlocks {
 public:
  // uses[c]: how many pairs will take class c's block.
  explicit DiagonalBlocks(std::vector<int> uses);

  // Publishes class c's block and wakes the producers waiting for it.
  void publish(int32_t c, SharedDiagonal block);
  // Waits until class c's block is published and returns it; nullptr once
  // fail() was called. The last of the class's uses drops the table's copy.
  SharedDiagonal take(int32_t c);
  // A producer failed: nobody waits for a block that will not come.
  void fail();
  // Drops every block still held (after a failure; before the memory
  // accounting they report to goes away).
  void clear();

 private:
  std::mutex mutex_;
  std::condition_variable published_;
  std::vector<SharedDiagonal> blocks_;
  std::vector<int> uses_left_;
  bool failed_ = false;
};

// A block of `rows` x `rows` values (uninitialised: the producer overwrites
// it) whose deleter calls give_back(bytes) after freeing it.
std::shared_ptr<DiagonalBlock> make_diagonal_block(int64_t rows, KernelValues values,
                                                   std::function<void(uint64_t)> give_back);

// Bytes of class c's block.
inline uint64_t diagonal_block_bytes(int64_t rows, KernelValues values) {
  const uint64_t value_bytes = values == KernelValues::Unorm16 ? sizeof(uint16_t) : sizeof(float);
  return static_cast<uint64_t>(rows) * static_cast<uint64_t>(rows) * value_bytes;
}

}  // namespace cae::svm
