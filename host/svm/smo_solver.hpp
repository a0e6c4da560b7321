// Our dual solver for one C-SVC class pair, on the pair's whole kernel as the
// backend wrote it: float32 (or, for an RBF kernel, unorm16: kernel_values.hpp),
// resident, so no kernel cache (4 bytes per entry, or 2, where libsvm's
// PRECOMPUTED input takes 16). The kernel
// is read through a PairKernel (four class-class blocks, each row in two
// segments), so the diagonal blocks can be shared between pairs.
//
// The method is libsvm's (Fan, Chen & Lin 2005): sequential minimal
// optimisation of
//     min_a  1/2 a'Qa - e'a   subject to  y'a = 0,  0 <= a_i <= C,
// Q_ij = y_i y_j K_ij, two variables at a time, the pair chosen by
// second-order working-set selection (WSS3), stopped when the largest KKT
// violation m(a) - M(a) is at most eps, rho from the free variables' gradients.
// Gradients are kept in double. Optional shrinking (libsvm's rule) narrows the
// O(l) scans of each iteration to the variables that can still move. Each
// step's gradient pass also finds the next step's first variable (the same
// comparisons in the same order as a separate scan, so the same choices):
// two passes over the active set per iteration instead of three.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "svm/pair_kernel.hpp"

namespace cae::svm {

struct SmoSettings {
  double C = 1.0;
  double eps = 1e-3;
  bool shrinking = true;
  // 0: libsvm's limit, max(10^7, 100 l). Past it the result is returned as it
  // is, with converged == false (libsvm warns and does the same).
  int64_t max_iterations = 0;
};

struct SmoResult {
  std::vector<double> alpha;  // one per row, in [0, C]
  // G = Q alpha - e, one per row, at the solution: with `alpha`, a start for
  // a larger C that needs no gradient recomputed (it does not depend on C).
  std::vector<double> gradient;
  // dec(x) = sum_i y_i alpha_i K(x_i, x) - rho; dec > 0 means y = +1.
  double rho = 0.0;
  double objective = 0.0;  // 1/2 a'Qa - e'a at the solution
  int64_t iterations = 0;
  bool converged = false;
};

// `kernel`'s first class (rows [0, first_rows)) is labelled +1, the second
// -1, its values float32 or unorm16. Throws SvmError for an empty problem or
// settings out of range.
//
// Without `initial_alpha` SMO starts from 0. With it, from that feasible
// point (alpha seeding, e.g. the solution for a smaller C): one value per row
// in [0, C] with sum y_i a_i = 0 (within rounding). The gradient is then
// recomputed from it, G_t = y_t sum_j y_j a_j K_tj - 1, so the result meets
// the same stopping rule as a cold start; or it is `initial_gradient` when
// given (e.g. a previous result's `gradient` for its `alpha`), which saves
// recomputing it: O(l x support vectors) kernel reads. Throws SvmError for a
// start outside the box or of another length.
SmoResult solve_smo(const PairKernel& kernel, const SmoSettings& settings,
                    const std::vector<double>& initial_alpha = {},
                    const std::vector<double>& initial_gradient = {});
SmoResult solve_smo(const PairKernelUnorm16& kernel, const SmoSettings& settings,
                    const std::vector<double>& initial_alpha = {},
                    const std::vector<double>& initial_gradient = {});
// The same on one dense row-major [l, l] kernel, rows [0, positives) labelled +1.
SmoResult solve_smo(const float* kernel, int64_t l, int64_t positives, const SmoSettings& settings);

// The result at `alpha` with its gradient G = Q alpha - e, rows [0, positives)
// labelled +1: rho and the objective as solve_smo computes them (iterations
// 0, converged false: the caller's to set). For a solution found elsewhere
// (the backend's solver, device_pairs.hpp).
SmoResult smo_result_of(std::vector<double> alpha, std::vector<double> gradient, int64_t positives,
                        double C);

// Host bytes solve_smo allocates per row: alpha, gradient, label and diagonal
// per row; the packed copy of the active set (row, entry, y G, diagonal, two
// flags); while reactivating, a sum, a flag and a row list.
constexpr uint64_t kSmoBytesPerRow =
    7 * sizeof(double) + 2 * sizeof(std::size_t) + sizeof(uint32_t) + 3;

}  // namespace cae::svm
