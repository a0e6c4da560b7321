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

namespace cae::svm {

// [rows, rows] floats, row-major, uninitialised (the backend overwrites them).
// mmap'ed rather than new'ed, like PairWorkspace: freeing a block gives its
// memory back to the system at once. From the heap, glibc would keep freed
// blocks of this size for reuse (its mmap threshold rises to the size of the
// first one freed), and the process's peak would keep them through the
// prediction that follows training.
class DiagonalBlock {
 public:
  explicit DiagonalBlock(int64_t rows);  // throws SvmError when out of memory
  ~DiagonalBlock();
  DiagonalBlock(const DiagonalBlock&) = delete;
  DiagonalBlock& operator=(const DiagonalBlock&) = delete;

  int64_t rows() const { return rows_; }
  // Where the backend writes the block, float32.
  float* values() const { return values_; }
  // The block as SMO reads it: float32 as written (nullptr once converted),
  // or its unorm16 rewrite (nullptr until converted).
  const float* float32() const { return unorm16_ ? nullptr : values_; }
  const uint16_t* unorm16() const { return unorm16_; }
  // Rewrites the float32 block as unorm16 in place (kernel_values.hpp), before
  // it is shared. Throws SvmError for a value that is not an RBF kernel's.
  void convert_to_unorm16();

 private:
  int64_t rows_ = 0;
  float* values_ = nullptr;
  const uint16_t* unorm16_ = nullptr;
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

// A block of `rows` x `rows` floats (uninitialised: the backend overwrites
// it) whose deleter calls give_back(bytes) after freeing it.
std::shared_ptr<DiagonalBlock> make_diagonal_block(int64_t rows,
                                                   std::function<void(uint64_t)> give_back);

// Bytes of class c's block.
inline uint64_t diagonal_block_bytes(int64_t rows) {
  return static_cast<uint64_t>(rows) * static_cast<uint64_t>(rows) * sizeof(float);
}

}  // namespace cae::svm
