#include "svm/diagonal_blocks.hpp"

#include <sys/mman.h>

#include <string>

#include "svm/svm_error.hpp"

namespace cae::svm {

DiagonalBlock::DiagonalBlock(int64_t rows, KernelValues values) : rows_(rows), values_(values) {
  if (values == KernelValues::Auto) {
    throw SvmError("a diagonal kernel block needs its values resolved (float32 or unorm16)");
  }
  // Populated at once: every byte is written next anyway, and one call maps
  // the pages in instead of a fault per page on the producer's thread.
  void* memory = rows < 1 ? MAP_FAILED
                          : mmap(nullptr, diagonal_block_bytes(rows, values),
                                 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
                                 -1, 0);
  if (memory == MAP_FAILED) {
    throw SvmError("cannot allocate the diagonal kernel block of a class of " +
                   std::to_string(rows) + " rows");
  }
  memory_ = memory;
}

DiagonalBlock::~DiagonalBlock() { munmap(memory_, diagonal_block_bytes(rows_, values_)); }

DiagonalBlocks::DiagonalBlocks(std::vector<int> uses)
    : blocks_(uses.size()), uses_left_(std::move(uses)) {}

void DiagonalBlocks::publish(int32_t c, SharedDiagonal block) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    blocks_[static_cast<size_t>(c)] = std::move(block);
  }
  published_.notify_all();
}

SharedDiagonal DiagonalBlocks::take(int32_t c) {
  SharedDiagonal last;  // released outside the lock: its deleter takes another one
  std::unique_lock<std::mutex> lock(mutex_);
  const size_t index = static_cast<size_t>(c);
  published_.wait(lock, [&] { return failed_ || blocks_[index] != nullptr; });
  if (failed_) return nullptr;
  SharedDiagonal block = blocks_[index];
  if (--uses_left_[index] == 0) last = std::move(blocks_[index]);
  return block;
}

void DiagonalBlocks::fail() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    failed_ = true;
  }
  published_.notify_all();
}

void DiagonalBlocks::clear() {
  std::vector<SharedDiagonal> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    dropped.swap(blocks_);
  }
}

std::shared_ptr<DiagonalBlock> make_diagonal_block(int64_t rows, KernelValues values,
                                                   std::function<void(uint64_t)> give_back) {
  const uint64_t bytes = diagonal_block_bytes(rows, values);
  std::unique_ptr<DiagonalBlock> block;
  try {
    block = std::make_unique<DiagonalBlock>(rows, values);
  } catch (...) {
    give_back(bytes);  // the reservation the block was made for
    throw;
  }
  // Should the control block fail to allocate, shared_ptr runs the deleter.
  return std::shared_ptr<DiagonalBlock>(block.release(),
                                        [bytes, give_back](DiagonalBlock* released) {
                                          delete released;
                                          give_back(bytes);
                                        });
}

}  // namespace cae::svm
