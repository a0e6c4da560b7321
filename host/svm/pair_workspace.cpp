#include "svm/pair_workspace.hpp"

#include <sys/mman.h>

#include <cstring>
#include <vector>

#include "svm/svm_error.hpp"

namespace cae::svm {

uint64_t PairWorkspace::bytes_for(int64_t rows, SolverKind solver, KernelValues values) {
  const uint64_t l = static_cast<uint64_t>(rows);
  if (solver != SolverKind::Smo) return l * (l + 2) * sizeof(svm_node);
  // SMO: 2 n_a n_b values for n_a + n_b = l is at most l^2 / 2 (equal classes).
  const uint64_t value_bytes = values == KernelValues::Unorm16 ? sizeof(uint16_t) : sizeof(float);
  return l * l / 2 * value_bytes;
}

PairWorkspace::PairWorkspace(int64_t capacity_rows, SolverKind solver, KernelValues values)
    : capacity_rows_(capacity_rows),
      solver_(solver),
      values_(solver == SolverKind::Smo ? values : KernelValues::Float32),
      bytes_(bytes_for(capacity_rows, solver, values_)) {
  if (capacity_rows < 1 || capacity_rows > (int64_t{1} << 20)) {
    throw SvmError("cannot solve a class pair of " + std::to_string(capacity_rows) + " rows");
  }
  if (values_ == KernelValues::Auto) {
    throw SvmError("a pair workspace needs its kernel values resolved (float32 or unorm16)");
  }
  // mmap rather than new: uninitialised (nothing is zeroed twice) and given
  // back to the system on destruction. Huge pages were tried (madvise): they
  // did not speed libsvm up and made the first touch much slower.
  void* memory = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    throw SvmError("cannot allocate " + std::to_string(bytes_) + " bytes for a class pair");
  }
  base_ = static_cast<svm_node*>(memory);
}

PairWorkspace::~PairWorkspace() { munmap(base_, bytes_); }

float* PairWorkspace::kernel(int64_t l) const {
  if (solver_ == SolverKind::Smo) return reinterpret_cast<float*>(base_);
  const uint64_t end = bytes_for(l, solver_);
  const uint64_t kernel_bytes = static_cast<uint64_t>(l) * static_cast<uint64_t>(l) * sizeof(float);
  return reinterpret_cast<float*>(reinterpret_cast<char*>(base_) + (end - kernel_bytes));
}

void PairWorkspace::convert_to_nodes(int64_t l) {
  if (solver_ != SolverKind::Libsvm) {
    throw SvmError("an SMO workspace holds no libsvm node rows");
  }
  if (l < 1 || l > capacity_rows_) {
    throw SvmError("a class pair of " + std::to_string(l) + " rows does not fit its workspace");
  }
  const float* kernel_rows = kernel(l);
  std::vector<float> row_values(static_cast<size_t>(l));
  for (int64_t r = 0; r < l; ++r) {
    // Copy out first: the node row written next overlaps this float row.
    std::memcpy(row_values.data(), kernel_rows + r * l, static_cast<size_t>(l) * sizeof(float));
    svm_node* row = base_ + r * (l + 2);
    row[0] = {0, static_cast<double>(r + 1)};  // 1-based serial: libsvm looks up K(., r) by it
    for (int64_t c = 0; c < l; ++c) {
      row[c + 1] = {static_cast<int>(c + 1), row_values[static_cast<size_t>(c)]};
    }
    row[l + 1] = {-1, 0.0};
  }
}

}  // namespace cae::svm
