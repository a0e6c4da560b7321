#include "svm/diagonal_blocks.hpp"

namespace cae::svm {

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

std::shared_ptr<DiagonalBlock> make_diagonal_block(int64_t rows,
                                                   std::function<void(uint64_t)> give_back) {
  const uint64_t bytes = diagonal_block_bytes(rows);
  auto* block = new DiagonalBlock{
      rows, std::unique_ptr<float[]>(new float[static_cast<size_t>(rows * rows)])};
  return std::shared_ptr<DiagonalBlock>(
      block, [bytes, give_back = std::move(give_back)](DiagonalBlock* b) {
        delete b;
        give_back(bytes);
      });
}

}  // namespace cae::svm
