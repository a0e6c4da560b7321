// ABI 1.8's svm_dual_solve, when the backend provides it: what the ABI
// promises of a solution, checked in double on the host from the kernel the
// suite uploaded (not from the backend's answer about itself):
//   - alpha is feasible: every value in [0, C], y'alpha = 0 within rounding;
//   - its gradient as returned is Q alpha - e (recomputed here);
//   - the largest KKT violation of that recomputed gradient is within eps
//     (with the slack of the gradient's float32 rounding), and the problem
//     says it converged;
// on two overlapping classes (so that some alphas are free, some at C), for a
// cold start, a warm start at a larger C from the first solution, and a batch
// of problems sharing their diagonal blocks; with ABI 1.9, kernel_ba NULL
// (K(b, a) taken as kernel_ab's transpose) beside the same problem with it
// given, which must take the same steps; and refusals (C = 0, a start
// outside the box, shapes that do not fit) that write nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "checks.hpp"
#include "device_data.hpp"
#include "random_data.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

const char* kOp = "svm_dual_solve";
constexpr double kEps = 1e-3;

// Two classes of `a` and `b` points in `dim` dimensions, their centres one
// spread apart so that the classes overlap, and their RBF kernel [l, l] in
// the order a then b (computed in double, stored as float32).
struct Problem {
  int64_t a = 0, b = 0;
  std::vector<float> K;  // [l, l] row-major
  int64_t l() const { return a + b; }
  std::vector<float> block(int64_t r0, int64_t rows, int64_t c0, int64_t cols) const {
    std::vector<float> out;
    for (int64_t r = r0; r < r0 + rows; ++r) {
      out.insert(out.end(), K.begin() + r * l() + c0, K.begin() + r * l() + c0 + cols);
    }
    return out;
  }
};

Problem make_problem(Random& rng, int64_t a, int64_t b) {
  const int64_t dim = 8;
  Problem p{a, b, {}};
  std::vector<double> x(static_cast<size_t>(p.l() * dim));
  for (int64_t t = 0; t < p.l(); ++t) {
    for (int64_t k = 0; k < dim; ++k) {
      const double centre = k == 0 ? (t < a ? 0.5 : -0.5) : 0.0;
      x[static_cast<size_t>(t * dim + k)] = centre + rng.uniform(-1.0f, 1.0f);
    }
  }
  const double gamma = 1.0 / dim;
  p.K.resize(static_cast<size_t>(p.l() * p.l()));
  for (int64_t s = 0; s < p.l(); ++s) {
    for (int64_t t = 0; t < p.l(); ++t) {
      double d2 = 0.0;
      for (int64_t k = 0; k < dim; ++k) {
        const double d = x[static_cast<size_t>(s * dim + k)] - x[static_cast<size_t>(t * dim + k)];
        d2 += d * d;
      }
      p.K[static_cast<size_t>(s * p.l() + t)] = static_cast<float>(std::exp(-gamma * d2));
    }
  }
  return p;
}

struct OnDevice {
  cae::Tensor aa, ab, ba, bb, alpha, gradient;
};

OnDevice upload(const Problem& p) {
  OnDevice d;
  d.aa = upload_tensor({p.a, p.a}, p.block(0, p.a, 0, p.a));
  d.ab = upload_tensor({p.a, p.b}, p.block(0, p.a, p.a, p.b));
  d.ba = upload_tensor({p.b, p.a}, p.block(p.a, p.b, 0, p.a));
  d.bb = upload_tensor({p.b, p.b}, p.block(p.a, p.b, p.a, p.b));
  d.alpha = upload_tensor({p.l()}, std::vector<float>(static_cast<size_t>(p.l()), 0.0f));
  d.gradient = upload_tensor({p.l()}, std::vector<float>(static_cast<size_t>(p.l()), -1.0f));
  return d;
}

cae_svm_dual_problem described(const OnDevice& d, const cae::Tensor& aa, double C) {
  cae_svm_dual_problem p{};
  p.struct_size = sizeof p;
  p.kernel_aa = aa.handle();
  p.kernel_ab = d.ab.handle();
  p.kernel_ba = d.ba.handle();
  p.kernel_bb = d.bb.handle();
  p.alpha = d.alpha.handle();
  p.gradient = d.gradient.handle();
  p.C = C;
  p.eps = kEps;
  p.max_iterations = 1000000;
  return p;
}

// The checks of one solved problem; `what` names it.
void check_solution(const Problem& p, const OnDevice& d, const cae_svm_dual_problem& solved,
                    double C, const std::string& what) {
  const std::vector<float> alpha = download(d.alpha);
  const std::vector<float> gradient = download(d.gradient);
  const int64_t l = p.l();
  auto y = [&](int64_t t) { return t < p.a ? 1.0 : -1.0; };
  double balance = 0.0, total = 0.0;
  bool in_box = true;
  int free_count = 0, at_C = 0;
  for (int64_t t = 0; t < l; ++t) {
    const double a = alpha[static_cast<size_t>(t)];
    in_box = in_box && std::isfinite(a) && a >= 0.0 && a <= C;
    balance += y(t) * a;
    total += a;
    free_count += a > 0.0 && a < C ? 1 : 0;
    at_C += a >= C ? 1 : 0;
  }
  record(in_box, kOp, what + ": alpha in [0, C]", "C = " + sci(C));
  record(std::fabs(balance) <= 1e-4 * std::max(total, 1.0), kOp, what + ": y'alpha = 0",
         "y'alpha " + sci(balance) + " of sum " + sci(total));
  // G = Q alpha - e from the uploaded kernel, and the KKT gap it leaves.
  std::vector<double> G(static_cast<size_t>(l));
  double gradient_error = 0.0;
  for (int64_t s = 0; s < l; ++s) {
    double sum = 0.0;
    for (int64_t t = 0; t < l; ++t) {
      sum += y(t) * double(alpha[static_cast<size_t>(t)]) * p.K[static_cast<size_t>(s * l + t)];
    }
    G[static_cast<size_t>(s)] = y(s) * sum - 1.0;
    gradient_error = std::max(
        gradient_error, std::fabs(G[static_cast<size_t>(s)] - gradient[static_cast<size_t>(s)]));
  }
  const double gradient_bound = 1e-6 * (1.0 + total);
  record(gradient_error <= gradient_bound, kOp, what + ": gradient is Q alpha - e",
         "largest difference " + sci(gradient_error) + " (bound " + sci(gradient_bound) + ")");
  double m = -INFINITY, M = INFINITY;
  for (int64_t t = 0; t < l; ++t) {
    const double a = alpha[static_cast<size_t>(t)];
    const double value = -y(t) * G[static_cast<size_t>(t)];
    const bool up = y(t) > 0 ? a < C : a > 0.0;
    const bool down = y(t) > 0 ? a > 0.0 : a < C;
    if (up) m = std::max(m, value);
    if (down) M = std::min(M, value);
  }
  const double gap = m - M;
  record(solved.converged == 1 && gap <= kEps + 2.0 * gradient_bound, kOp,
         what + ": KKT gap within eps",
         "gap " + sci(gap) + ", eps " + sci(kEps) + ", " + std::to_string(solved.iterations) +
             " steps, " + std::to_string(free_count) + " free and " + std::to_string(at_C) +
             " at C of " + std::to_string(l));
}

void solve_one(int64_t a, int64_t b, const std::string& label) {
  Random rng = random_for(kOp, label);
  const Problem p = make_problem(rng, a, b);
  OnDevice d = upload(p);
  std::vector<cae_svm_dual_problem> problems{described(d, d.aa, 1.0)};
  ctx().svm_dual_solve(problems);
  check_solution(p, d, problems[0], 1.0, label + " cold, C 1");
  // Warm: from the C = 1 solution as it is (inside the larger box).
  problems[0] = described(d, d.aa, 10.0);
  ctx().svm_dual_solve(problems);
  check_solution(p, d, problems[0], 10.0, label + " warm, C 10");
}

// Three problems at once, the first class's diagonal block shared by all.
void solve_batch(const std::string& label) {
  Random rng = random_for(kOp, label);
  const Problem p = make_problem(rng, 30, 50);
  std::vector<OnDevice> d;
  for (int k = 0; k < 3; ++k) d.push_back(upload(p));
  const double Cs[3] = {0.5, 2.0, 8.0};
  std::vector<cae_svm_dual_problem> problems;
  for (int k = 0; k < 3; ++k) problems.push_back(described(d[size_t(k)], d[0].aa, Cs[k]));
  ctx().svm_dual_solve(problems);
  for (int k = 0; k < 3; ++k) {
    check_solution(p, d[size_t(k)], problems[size_t(k)], Cs[k],
                   label + " problem " + std::to_string(k) + ", C " + sci(Cs[k]));
  }
}

// ABI 1.9: the same pair twice in one call, once with kernel_ba and once
// with NULL in its place. The transpose holds the same values as the block
// given, so both must take the same steps to the same alphas.
void solve_transposed(int64_t a, int64_t b, const std::string& label) {
  Random rng = random_for(kOp, label);
  const Problem p = make_problem(rng, a, b);
  OnDevice given = upload(p), transposed = upload(p);
  std::vector<cae_svm_dual_problem> problems{described(given, given.aa, 2.0),
                                             described(transposed, transposed.aa, 2.0)};
  problems[1].kernel_ba = nullptr;
  ctx().svm_dual_solve(problems);
  check_solution(p, transposed, problems[1], 2.0, label + " kernel_ba NULL, C 2");
  const bool same = download(given.alpha) == download(transposed.alpha) &&
                    problems[0].iterations == problems[1].iterations;
  record(same, kOp, label + ": kernel_ba NULL takes the steps of kernel_ba given",
         std::to_string(problems[1].iterations) + " steps against " +
             std::to_string(problems[0].iterations));
}

void check_refusals() {
  Random rng = random_for(kOp, "refusals");
  const Problem p = make_problem(rng, 5, 7);
  OnDevice d = upload(p);
  const cae_backend_table& t = table();
  cae_svm_dual_problem zero_C = described(d, d.aa, 0.0);
  record(t.svm_dual_solve(ctx().handle(), &zero_C, 1) == CAE_STATUS_INVALID_ARGUMENT, kOp,
         "C = 0", "refused");
  std::vector<float> outside(static_cast<size_t>(p.l()), 0.0f);
  outside[0] = 2.0f;  // C is 1
  outside[static_cast<size_t>(p.a)] = 2.0f;
  d.alpha.upload(outside);
  cae_svm_dual_problem outside_box = described(d, d.aa, 1.0);
  const cae_status status = t.svm_dual_solve(ctx().handle(), &outside_box, 1);
  record(status == CAE_STATUS_INVALID_ARGUMENT && download(d.alpha) == outside, kOp,
         "a start outside [0, C]", "refused, alpha unchanged");
  d.alpha.upload(std::vector<float>(static_cast<size_t>(p.l()), 0.0f));
  cae_svm_dual_problem swapped = described(d, d.aa, 1.0);
  swapped.kernel_ab = d.ba.handle();  // [b, a] where [a, b] belongs
  record(t.svm_dual_solve(ctx().handle(), &swapped, 1) == CAE_STATUS_INVALID_ARGUMENT, kOp,
         "kernel_ab of the wrong shape", "refused");
  record(t.svm_dual_solve(ctx().handle(), &swapped, 0) == CAE_STATUS_INVALID_ARGUMENT, kOp,
         "count 0", "refused");
}

}  // namespace

void check_svm_dual() {
  if (!CAE_TABLE_HAS(&table(), svm_dual_solve)) {
    note(kOp, "svm_dual_solve", "not provided (optional, ABI 1.8): the host solves the SVM's pairs");
    return;
  }
  SUBCASE("refusals") { guarded(kOp, "refusals", check_refusals); }
  SUBCASE("small pair") { guarded(kOp, "small pair", [] { solve_one(12, 20, "12 + 20 rows"); }); }
  SUBCASE("pair") {
    const int64_t a = suite().quick ? 120 : 700, b = suite().quick ? 90 : 600;
    const std::string label = std::to_string(a) + " + " + std::to_string(b) + " rows";
    guarded(kOp, label, [&] { solve_one(a, b, label); });
  }
  SUBCASE("batch") { guarded(kOp, "batch", [] { solve_batch("three pairs sharing a block"); }); }
  if (table().abi_minor >= 9) {
    SUBCASE("kernel_ba NULL") {
      // Odd sizes: a transpose of an odd number of floats must not misalign
      // what the backend keeps after it.
      const int64_t a = suite().quick ? 61 : 401, b = suite().quick ? 45 : 301;
      const std::string label = std::to_string(a) + " + " + std::to_string(b) + " rows";
      guarded(kOp, label, [&] { solve_transposed(a, b, label); });
    }
  }
}

}  // namespace conformance
