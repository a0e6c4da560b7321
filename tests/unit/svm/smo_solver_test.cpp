// Our SMO solver against libsvm on the same kernels. Tolerances (both solvers
// stop at eps = 1e-3, so neither is exact):
//   - support vectors: a row may be a support vector in one solution only if
//     its alpha there is below kAlphaTolerance * C (near 0; alphas near C
//     never change the set);
//   - dual objective: relative difference <= 1e-3;
//   - rho: within kRhoTolerance;
//   - held-out predictions: the sign of the decision value may differ only
//     where libsvm's |decision| < kDecisionTolerance (a point on the boundary).
#include "svm/smo_solver.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>

#include "svm/pair_solver.hpp"
#include "svm/svm_error.hpp"

using namespace cae::svm;

namespace {

constexpr double kAlphaTolerance = 0.05;
constexpr double kRhoTolerance = 0.05;
constexpr double kDecisionTolerance = 0.05;
constexpr int kSolverDim = 12;

struct Points {
  int64_t rows = 0;
  std::vector<double> values;  // [rows, kSolverDim]
  const double* row(int64_t r) const { return values.data() + r * kSolverDim; }
};

// Two Gaussian clouds N(+-separation/2 e_0, I): the first `first` rows
// (class +1), then `second` rows (class -1).
Points two_clouds(int64_t first, int64_t second, double separation, std::mt19937_64& random) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Points points;
  points.rows = first + second;
  for (int64_t r = 0; r < points.rows; ++r) {
    for (int d = 0; d < kSolverDim; ++d) {
      const double centre = d == 0 ? (r < first ? 0.5 : -0.5) * separation : 0.0;
      points.values.push_back(centre + normal(random));
    }
  }
  return points;
}

struct Case {
  uint64_t seed;
  bool rbf;
  double separation;  // 6: separable in practice, 1: overlapping
  double C;
  int64_t first, second;
};

double case_kernel_value(const Case& c, const double* x, const double* y) {
  double dot = 0.0;
  double distance = 0.0;
  for (int d = 0; d < kSolverDim; ++d) {
    dot += x[d] * y[d];
    distance += (x[d] - y[d]) * (x[d] - y[d]);
  }
  return c.rbf ? std::exp(-distance / kSolverDim) : dot / kSolverDim;
}

std::vector<float> kernel_of(const Case& c, const Points& a, const Points& b) {
  std::vector<float> kernel(static_cast<size_t>(a.rows * b.rows));
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t j = 0; j < b.rows; ++j) {
      kernel[static_cast<size_t>(i * b.rows + j)] =
          static_cast<float>(case_kernel_value(c, a.row(i), b.row(j)));
    }
  }
  return kernel;
}

// 1/2 c'Kc - sum |c| with c = y alpha: the dual objective of a solution.
double dual_objective(const PairSolution& s, const std::vector<float>& kernel, int64_t l) {
  double quadratic = 0.0;
  double linear = 0.0;
  for (size_t a = 0; a < s.support.size(); ++a) {
    linear += std::fabs(s.coef[a]);
    for (size_t b = 0; b < s.support.size(); ++b) {
      quadratic += double(s.coef[a]) * s.coef[b] *
                   kernel[static_cast<size_t>(s.support[a] * l + s.support[b])];
    }
  }
  return 0.5 * quadratic - linear;
}

// Decision values on held-out points, kernel [test, train].
std::vector<double> decisions(const PairSolution& s, const std::vector<float>& test_kernel,
                              int64_t l, int64_t tests) {
  std::vector<double> out(static_cast<size_t>(tests), -double(s.rho));
  for (int64_t t = 0; t < tests; ++t) {
    for (size_t k = 0; k < s.support.size(); ++k) {
      out[static_cast<size_t>(t)] +=
          double(s.coef[k]) * test_kernel[static_cast<size_t>(t * l + s.support[k])];
    }
  }
  return out;
}

std::map<int64_t, float> coef_by_row(const PairSolution& s) {
  std::map<int64_t, float> out;
  for (size_t k = 0; k < s.support.size(); ++k) out[s.support[k]] = s.coef[k];
  return out;
}

void check_against_libsvm(const Case& c, const SmoPairSolution& smo, const PairSolution& reference,
                          const std::vector<float>& kernel, const std::vector<float>& test_kernel,
                          int64_t tests);

// The training's path: the diagonal blocks K(a,a), K(b,b) apart, the workspace
// holding only K(a,b), the worker adding K(b,a) by transposing. On a
// symmetric kernel that is the same matrix, so the solution must be the
// dense path's bit for bit.
void check_shared_blocks_path(const PairRows& rows, const std::vector<float>& kernel,
                              const SolverSettings& settings) {
  const int64_t n0 = rows.count(0);
  const int64_t n1 = rows.count(1);
  const int64_t l = n0 + n1;
  for (int64_t i = 0; i < l; ++i) {
    for (int64_t j = 0; j < i; ++j) {
      REQUIRE(kernel[static_cast<size_t>(i * l + j)] == kernel[static_cast<size_t>(j * l + i)]);
    }
  }
  std::vector<float> first(static_cast<size_t>(n0 * n0)), second(static_cast<size_t>(n1 * n1));
  PairWorkspace workspace(l, SolverKind::Smo);
  float* off_diagonal = workspace.kernel(l);
  for (int64_t i = 0; i < l; ++i) {
    for (int64_t j = 0; j < l; ++j) {
      const float k = kernel[static_cast<size_t>(i * l + j)];
      if (i < n0 && j < n0) first[static_cast<size_t>(i * n0 + j)] = k;
      if (i >= n0 && j >= n0) second[static_cast<size_t>((i - n0) * n1 + j - n0)] = k;
      if (i < n0 && j >= n0) off_diagonal[i * n1 + j - n0] = k;
    }
  }
  PairDiagonals diagonal;
  diagonal.float32[0] = first.data();
  diagonal.float32[1] = second.data();
  const PairSolution shared = solve_pair(rows, workspace, settings, diagonal);
  const PairSolution dense = solve_pair_smo(rows, kernel.data(), settings).solution;
  CHECK(shared.support == dense.support);
  CHECK(shared.coef == dense.coef);
  CHECK(shared.rho == dense.rho);
  CHECK_THROWS_WITH_AS(solve_pair(rows, workspace, settings),
                       doctest::Contains("needs the classes' diagonal kernel blocks"), SvmError);
}

// SMO, with and without shrinking, and libsvm on one kernel; `c` says which.
void compare_with_libsvm(const Case& c) {
  INFO("seed " << c.seed << ", " << std::string(c.rbf ? "rbf" : "linear") << ", separation "
               << c.separation << ", C " << c.C << ", rows " << c.first << " + " << c.second);
  std::mt19937_64 random(c.seed);
  const Points train = two_clouds(c.first, c.second, c.separation, random);
  const Points test = two_clouds(100, 100, c.separation, random);
  const int64_t l = train.rows;
  const std::vector<float> kernel = kernel_of(c, train, train);

  std::vector<int64_t> first_rows(static_cast<size_t>(c.first));
  std::vector<int64_t> second_rows(static_cast<size_t>(c.second));
  std::iota(first_rows.begin(), first_rows.end(), 0);
  std::iota(second_rows.begin(), second_rows.end(), c.first);
  PairRows rows;
  rows.pair = {0, 1};
  rows.rows[0] = &first_rows;
  rows.rows[1] = &second_rows;

  SolverSettings settings;
  settings.C = c.C;
  settings.cache_mb = 10.0;
  settings.solver = SolverKind::Libsvm;
  PairWorkspace workspace(l, SolverKind::Libsvm);
  std::copy(kernel.begin(), kernel.end(), workspace.kernel(l));
  configure_libsvm_output(false);
  const PairSolution reference = solve_pair(rows, workspace, settings);
  const std::vector<float> test_kernel = kernel_of(c, test, train);
  settings.solver = SolverKind::Smo;
  for (const bool shrinking : {true, false}) {
    settings.shrinking = shrinking;
    INFO("SMO shrinking " << shrinking);
    check_against_libsvm(c, solve_pair_smo(rows, kernel.data(), settings), reference, kernel,
                         test_kernel, test.rows);
  }
  check_shared_blocks_path(rows, kernel, settings);
}

void check_against_libsvm(const Case& c, const SmoPairSolution& smo, const PairSolution& reference,
                          const std::vector<float>& kernel, const std::vector<float>& test_kernel,
                          int64_t tests) {
  const int64_t l = c.first + c.second;
  CHECK(smo.converged);
  // The objective the solver reports is the one of the alphas it returns.
  CHECK(smo.objective == doctest::Approx(dual_objective(smo.solution, kernel, l)).epsilon(1e-5));
  const double reference_objective = dual_objective(reference, kernel, l);
  CHECK(std::fabs(smo.objective - reference_objective) <= 1e-3 * std::fabs(reference_objective));

  const std::map<int64_t, float> ours = coef_by_row(smo.solution);
  const std::map<int64_t, float> theirs = coef_by_row(reference);
  int64_t disagreements = 0;
  for (const auto* side : {&ours, &theirs}) {
    const auto* other = side == &ours ? &theirs : &ours;
    for (const auto& [row, coef] : *side) {
      if (other->count(row)) continue;
      ++disagreements;
      INFO("row " << row << " is a support vector of one solver only, alpha " << std::fabs(coef));
      CHECK(std::fabs(coef) <= kAlphaTolerance * c.C);
    }
  }
  CHECK(disagreements <= std::max<int64_t>(2, l / 100));
  CHECK(std::fabs(smo.solution.rho - reference.rho) <= kRhoTolerance);

  const std::vector<double> ours_dec = decisions(smo.solution, test_kernel, l, tests);
  const std::vector<double> theirs_dec = decisions(reference, test_kernel, l, tests);
  for (int64_t t = 0; t < tests; ++t) {
    const double a = ours_dec[static_cast<size_t>(t)];
    const double b = theirs_dec[static_cast<size_t>(t)];
    if ((a > 0) != (b > 0)) {
      INFO("held-out point " << t << ": decision " << a << " (smo) vs " << b << " (libsvm)");
      CHECK(std::fabs(b) < kDecisionTolerance);
    }
  }
}

}  // namespace

TEST_CASE("SMO solves a two-point problem exactly") {
  // x = +1 (class +1) and x = -1 (class -1), linear kernel: alpha = 1/2 each
  // (objective 2 a^2 - 2 a), rho = 0, unless C cuts alpha at C.
  const float kernel[4] = {1.0f, -1.0f, -1.0f, 1.0f};
  const SmoResult free = solve_smo(kernel, 2, 1, {10.0, 1e-6, true, 0});
  CHECK(free.converged);
  CHECK(free.alpha[0] == doctest::Approx(0.5));
  CHECK(free.alpha[1] == doctest::Approx(0.5));
  CHECK(free.objective == doctest::Approx(-0.5));
  CHECK(free.rho == doctest::Approx(0.0));
  const SmoResult bounded = solve_smo(kernel, 2, 1, {0.25, 1e-6, true, 0});
  CHECK(bounded.alpha[0] == 0.25);
  CHECK(bounded.alpha[1] == 0.25);
  CHECK(bounded.objective == doctest::Approx(2 * 0.0625 - 0.5));
  CHECK(bounded.rho == doctest::Approx(0.0));
}

TEST_CASE("SMO rejects bad problems and an iteration limit stops it unconverged") {
  const float kernel[4] = {1.0f, -1.0f, -1.0f, 1.0f};
  CHECK_THROWS_AS(solve_smo(kernel, 0, 0, {}), SvmError);
  CHECK_THROWS_AS(solve_smo(kernel, 2, 3, {}), SvmError);
  CHECK_THROWS_AS(solve_smo(kernel, 2, 1, {0.0, 1e-3, true, 0}), SvmError);
  CHECK_THROWS_AS(solve_smo(kernel, 2, 1, {1.0, -1.0, true, 0}), SvmError);
  std::mt19937_64 random(7);
  const Case c{7, true, 1.0, 1.0, 150, 100};
  const Points points = two_clouds(c.first, c.second, c.separation, random);
  const std::vector<float> big = kernel_of(c, points, points);
  const SmoResult stopped = solve_smo(big.data(), points.rows, c.first, {1.0, 1e-3, true, 3});
  CHECK(!stopped.converged);
  CHECK(stopped.iterations == 3);
}

TEST_CASE("an SMO workspace holds the two off-diagonal blocks (4 bytes per entry), no node rows") {
  PairWorkspace workspace(50, SolverKind::Smo);
  CHECK(workspace.bytes() == 50 * 50 / 2 * sizeof(float));
  CHECK(PairWorkspace::bytes_for(10000, SolverKind::Smo) == 200000000u);
  CHECK(PairWorkspace::bytes_for(51, SolverKind::Smo) >= 2 * 25 * 26 * sizeof(float));
  CHECK(PairWorkspace::bytes_for(10000, SolverKind::Libsvm) == 10000u * 10002u * 16u);
  CHECK_THROWS_AS(workspace.convert_to_nodes(50), SvmError);
  std::vector<int64_t> side{0, 1};
  PairRows rows;
  rows.rows[0] = &side;
  rows.rows[1] = &side;
  SolverSettings libsvm;
  libsvm.solver = SolverKind::Libsvm;
  CHECK_THROWS_WITH_AS(solve_pair(rows, workspace, libsvm),
                       doctest::Contains("laid out for another solver"), SvmError);
  CHECK(pair_solver_bytes(10000, SolverSettings{}) == 10000 * kSmoBytesPerRow);
}

TEST_CASE("transpose_block transposes, across tile edges") {
  const int64_t rows = 70, cols = 131;  // not multiples of the 64-row tiles
  std::vector<float> in(static_cast<size_t>(rows * cols)), out(in.size(), -1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  transpose_block(in.data(), rows, cols, out.data());
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      REQUIRE(out[static_cast<size_t>(c * rows + r)] == in[static_cast<size_t>(r * cols + c)]);
    }
  }
}

TEST_CASE("SMO agrees with libsvm on the same kernels (24 seeds)") {
  std::vector<Case> cases;
  uint64_t seed = 1000;
  for (const bool rbf : {true, false}) {
    for (const double separation : {6.0, 1.0}) {
      for (const double C : {0.1, 1.0, 10.0}) {
        cases.push_back({seed++, rbf, separation, C, 120, 80});
        cases.push_back({seed++, rbf, separation, C, 300, 500});
      }
    }
  }
  // A few thousand rows, unequal classes.
  cases.push_back({seed++, true, 1.0, 1.0, 1800, 1200});
  cases.push_back({seed++, false, 2.0, 0.5, 1200, 1000});
  for (const Case& c : cases) compare_with_libsvm(c);
}
