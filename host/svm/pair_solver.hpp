// One class pair of the one-vs-one SVM: C-SVC on the pair's precomputed
// kernel, by our SMO solver (svm/smo_solver.hpp) or by libsvm. This is what
// the worker threads run; it never touches the backend.
#pragma once

#include <cstdint>
#include <vector>

#include "svm/class_layout.hpp"
#include "svm/kernel_values.hpp"
#include "svm/pair_kernel.hpp"
#include "svm/pair_workspace.hpp"
#include "svm/smo_solver.hpp"
#include "svm/solver_kind.hpp"

namespace cae::svm {

// The training rows of one pair: the first class's, then the second's. Its
// kernel (in that row order) lives in a PairWorkspace.
struct PairRows {
  ClassPair pair;
  const std::vector<int64_t>* rows[2] = {nullptr, nullptr};  // global training rows

  int64_t count(int side) const { return static_cast<int64_t>(rows[side]->size()); }
  int64_t size() const { return count(0) + count(1); }
  int64_t global_row(int64_t index) const;  // index into the pair's row order
};

struct SolverSettings {
  double C = 1.0;
  double eps = 1e-3;
  double cache_mb = 100.0;  // libsvm's kernel-column cache, per pair
  bool shrinking = true;
  SolverKind solver = SolverKind::Smo;
  // SMO's kernel as stored: Float32 or Unorm16 (never Auto here).
  KernelValues kernel_values = KernelValues::Float32;
};

// A pair's shared diagonal blocks K(a,a) and K(b,b) as the producer left
// them: float32, or rewritten as unorm16 (SolverSettings::kernel_values).
struct PairDiagonals {
  const float* float32[2] = {nullptr, nullptr};
  const uint16_t* unorm16[2] = {nullptr, nullptr};
};

// The decision function of one pair: dec(x) = sum_k coef[k] K(sv_k, x) - rho,
// where dec > 0 votes for pair.first.
struct PairSolution {
  ClassPair pair;
  std::vector<int64_t> support;  // global training rows, ascending
  std::vector<float> coef;       // one per support vector
  float rho = 0.0f;
  bool converged = true;  // false: SMO stopped at its iteration limit (libsvm only warns)
};

// Host bytes the solver allocates while solving `size` rows, beyond the
// workspace: libsvm's column cache and per-row arrays, or SMO's per-row
// arrays.
uint64_t pair_solver_bytes(int64_t size, const SolverSettings& settings);

// Solves the pair whose kernel `workspace` holds (PairWorkspace::kernel) with
// settings.solver, which must be the workspace's. libsvm: the dense [l, l]
// kernel, overwritten with its node rows. SMO: K(a,b) [n_a, n_b] at the
// start, completed here with its transpose K(b,a) after it (on the worker
// thread, so the producer only computes K(a,b)); `diagonal` holds K(a,a) and
// K(b,b) (ignored by libsvm) as settings.kernel_values says. Everything the
// solver allocates is freed before it returns; the workspace can be reused.
// Throws SvmError.
PairSolution solve_pair(const PairRows& rows, PairWorkspace& workspace,
                        const SolverSettings& settings, const PairDiagonals& diagonal = {});

// SMO's view of the pair whose off-diagonal block K(a,b) the workspace holds:
// completes it with K(b,a) (the transpose, on the worker thread) and joins
// the shared diagonal blocks. Throws SvmError when something is missing.
PairKernel smo_pair_kernel(const PairRows& rows, PairWorkspace& workspace,
                           const PairDiagonals& diagonal);
// The same for a unorm16 workspace: its float32 K(a,b) rewritten as unorm16
// in place, then K(b,a) after it (PairWorkspace), joined to unorm16 diagonal
// blocks.
PairKernelUnorm16 smo_pair_kernel_unorm16(const PairRows& rows, PairWorkspace& workspace,
                                          const PairDiagonals& diagonal);

// The pair's kernel from its shared diagonal blocks and the workspace's
// off-diagonal ones (K(b,a) already written).
PairKernel shared_pair_kernel(const PairRows& rows, const float* off_diagonal,
                              const float* const diagonal[2]);
PairKernelUnorm16 shared_pair_kernel(const PairRows& rows, const uint16_t* off_diagonal,
                                     const uint16_t* const diagonal[2]);

// Calls solve(kernel) with SMO's view of the pair as `values` says it is
// stored (smo_pair_kernel or smo_pair_kernel_unorm16) and returns its result.
template <class Solve>
auto with_smo_pair_kernel(const PairRows& rows, PairWorkspace& workspace,
                          const PairDiagonals& diagonal, KernelValues values, Solve&& solve) {
  return values == KernelValues::Unorm16 ? solve(smo_pair_kernel_unorm16(rows, workspace, diagonal))
                                         : solve(smo_pair_kernel(rows, workspace, diagonal));
}

// Writes the transpose of the [rows, cols] matrix `in` to `out` [cols, rows].
void transpose_block(const float* in, int64_t rows, int64_t cols, float* out);
void transpose_block(const uint16_t* in, int64_t rows, int64_t cols, uint16_t* out);

// The SMO path on its own, with what the tests compare against libsvm.
struct SmoPairSolution {
  PairSolution solution;
  double objective = 0.0;  // the dual objective 1/2 a'Qa - e'a
  int64_t iterations = 0;
  bool converged = false;  // false: stopped at the iteration limit
  double seconds = 0.0;    // the solve's wall time (set by the warm-started search)
};
SmoPairSolution solve_pair_smo(const PairRows& rows, const PairKernel& kernel,
                               const SolverSettings& settings);
SmoPairSolution solve_pair_smo(const PairRows& rows, const PairKernelUnorm16& kernel,
                               const SolverSettings& settings);
// On a dense [l, l] kernel.
SmoPairSolution solve_pair_smo(const PairRows& rows, const float* kernel,
                               const SolverSettings& settings);
// The solution of SMO's result (alpha per row in the pair's row order).
SmoPairSolution pair_solution_of(const PairRows& rows, const SmoResult& result);

// libsvm prints its progress to stdout; keep it quiet unless `verbose` (then
// it goes to stderr). Process-wide: call before starting worker threads.
void configure_libsvm_output(bool verbose);

}  // namespace cae::svm
