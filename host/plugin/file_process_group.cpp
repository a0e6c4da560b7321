#include "plugin/file_process_group.hpp"

#include <cstring>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "io/atomic_file.hpp"
#include "io/binary_file.hpp"

namespace cae {
namespace fs = std::filesystem;

FileProcessGroup::FileProcessGroup(std::string prefix, int32_t rank, int32_t world,
                                   std::chrono::milliseconds timeout)
    : ProcessGroup(rank, world), prefix_(std::move(prefix)), timeout_(timeout) {
  std::vector<float> nothing;
  try {
    exchange(nothing);  // a barrier: every rank has joined (and read the id file)
  } catch (...) {
    std::error_code ignored;
    fs::remove(step_file(0, rank), ignored);
    throw;
  }
}

FileProcessGroup::~FileProcessGroup() {
  try {
    if (std::uncaught_exceptions() > 0) {
      // Failing: the others will time out waiting for this rank; leave no file.
      std::error_code ignored;
      fs::remove(step_file(step_ - 1, rank()), ignored);
      return;
    }
    if (rank() != 0) {
      write_file_atomically(done_file(rank()), "");
      return;
    }
    for (int32_t k = 1; k < world(); ++k) await_file(done_file(k), k);
    for (int32_t k = 0; k < world(); ++k) {
      std::error_code ignored;
      fs::remove(done_file(k), ignored);
      fs::remove(step_file(step_ - 1, k), ignored);
    }
  } catch (...) {
    // A rank that stopped early leaves its files behind; nothing to report here.
  }
}

std::string FileProcessGroup::step_file(int64_t step, int32_t rank) const {
  return prefix_ + ".s" + std::to_string(step) + ".r" + std::to_string(rank);
}

std::string FileProcessGroup::done_file(int32_t rank) const {
  return prefix_ + ".done.r" + std::to_string(rank);
}

std::string FileProcessGroup::await_file(const std::string& path, int32_t from_rank) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  auto pause = std::chrono::microseconds(200);
  while (!fs::exists(path)) {
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error(
          "rank " + std::to_string(rank()) + ": rank " + std::to_string(from_rank) +
          " wrote no " + path + " within " + seconds_text(timeout_) +
          " (did it stop? see --group-timeout)");
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
  return read_binary_file(path);
}

void FileProcessGroup::exchange(std::vector<float>& values) {
  const size_t bytes = values.size() * sizeof(float);
  {
    AtomicFile mine(step_file(step_, rank()));
    mine.write(values.data(), bytes);
    mine.commit();
  }
  std::vector<float> sum(values.size(), 0.0f), other(values.size());
  for (int32_t k = 0; k < world(); ++k) {
    const float* addend = values.data();
    if (k != rank()) {
      const std::string data = await_file(step_file(step_, k), k);
      if (data.size() != bytes) {
        throw std::runtime_error("rank " + std::to_string(rank()) + ": rank " + std::to_string(k) +
                                 " sent " + std::to_string(data.size()) + " bytes, not " +
                                 std::to_string(bytes) + " (do all ranks run the same model?)");
      }
      // An empty exchange (the constructor's handshake) has no buffer: memcpy
      // of a null pointer is undefined even for 0 bytes.
      if (bytes > 0) std::memcpy(other.data(), data.data(), bytes);
      addend = other.data();
    }
    for (size_t e = 0; e < sum.size(); ++e) sum[e] += addend[e];
  }
  values.swap(sum);
  // Every rank has written this step, so every rank has read the previous one.
  if (step_ > 0) {
    std::error_code ignored;
    fs::remove(step_file(step_ - 1, rank()), ignored);
  }
  ++step_;
}

void FileProcessGroup::all_reduce_sum(const std::vector<Tensor*>& tensors, float scale) {
  std::vector<size_t> offsets{0};
  for (const Tensor* t : tensors) offsets.push_back(offsets.back() + size_t(t->count()));
  std::vector<float> fused(offsets.back());
  for (size_t i = 0; i < tensors.size(); ++i) {
    tensors[i]->download(fused.data() + offsets[i], offsets[i + 1] - offsets[i]);
  }
  exchange(fused);
  for (float& value : fused) value *= scale;
  for (size_t i = 0; i < tensors.size(); ++i) {
    tensors[i]->upload(fused.data() + offsets[i], offsets[i + 1] - offsets[i]);
  }
}

}  // namespace cae
