// The memory one class pair is solved in, reused from pair to pair.
//
// For the SMO solver it holds the pair's two off-diagonal kernel blocks,
// K(a,b) [n_a, n_b] then K(b,a) [n_b, n_a], row-major: 2 n_a n_b <= l^2 / 2
// floats (the diagonal blocks are shared between pairs, diagonal_blocks.hpp).
// For libsvm it holds libsvm's PRECOMPUTED problem: l rows of l + 2 nodes (16 bytes
// each). The coordinator first writes the pair's kernel, l x l floats
// row-major, into the END of that region; the worker then turns it into node
// rows in place, front to back. That is safe because node row r ends where
// float row r + 1 begins at the latest (16 (l+2)(r+1) <= 16 l (l+2) - 4 l^2
// + 4 l (r+1) for r < l), and each float row is copied out before its node
// row is written. So the kernel costs no memory beyond the nodes, and a
// reused workspace costs no page faults (which cost as much as the node
// conversion itself on a first touch).
#pragma once

#include <svm.h>

#include <cstdint>

#include "svm/kernel_values.hpp"
#include "svm/solver_kind.hpp"

namespace cae::svm {

class PairWorkspace {
 public:
  // Room for `solver`'s problems of up to `capacity_rows` rows, SMO's kernel
  // values stored as `values` says (Float32 or Unorm16; libsvm's are float32).
  // Throws SvmError.
  PairWorkspace(int64_t capacity_rows, SolverKind solver,
                KernelValues values = KernelValues::Float32);
  ~PairWorkspace();
  PairWorkspace(const PairWorkspace&) = delete;
  PairWorkspace& operator=(const PairWorkspace&) = delete;

  // Bytes a workspace for `rows` rows of `solver` takes.
  static uint64_t bytes_for(int64_t rows, SolverKind solver,
                            KernelValues values = KernelValues::Float32);

  int64_t capacity_rows() const { return capacity_rows_; }
  SolverKind solver() const { return solver_; }
  KernelValues values() const { return values_; }
  uint64_t bytes() const { return bytes_; }

  // Where the kernel of an l-row problem goes (l <= capacity_rows()): libsvm's
  // dense [l, l] kernel, or SMO's off-diagonal blocks (in a unorm16 workspace,
  // K(a,b) as the backend computed it, before the worker rewrites it).
  float* kernel(int64_t l) const;
  // Rewrites that kernel as libsvm node rows (row r at nodes() + r * (l + 2)).
  // Only for a libsvm workspace.
  void convert_to_nodes(int64_t l);
  svm_node* nodes() const { return base_; }

 private:
  int64_t capacity_rows_ = 0;
  SolverKind solver_ = SolverKind::Libsvm;
  KernelValues values_ = KernelValues::Float32;
  uint64_t bytes_ = 0;
  svm_node* base_ = nullptr;
};

}  // namespace cae::svm
