// The kernel SVM's dual problems (svm_dual_solve, ABI 1.8) on the processor:
// the reference the GPU backends are certified against. Each problem is one
// chain of SMO steps on one thread, the problems side by side on the
// context's threads; a problem's result does not depend on the thread count.
//
// A step, in y G space (y_t G_t, in double), as the ABI describes it: i is the
// largest -y G among the rows that may move up; j, among the rows that may
// move down, the largest second-order gain b^2 / a, b = m - (-y_t G_t) > 0,
// a = K_ii + K_tt - 2 K_it; stop when m - M <= eps (M: the smallest -y G
// that may move down); move a_i += y_i s, a_j -= y_j s with s = b / a cut at
// the box; then y_t G_t += s (K_ti - K_tj) for every row. Ties keep the
// larger row index, as the CUDA backends' reductions do, so the two take the
// same steps up to the rounding of their kernels.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cpu_context.hpp"
#include "cpu_ops.hpp"
#include "cpu_parallel.hpp"
#include "op_shapes.hpp"
#include "svm_dual.hpp"

namespace cae_cpu {
namespace {

using Problem = cae_plugin::SvmDualWork;

// Row t of K: its values against a's rows, then against b's.
struct Row {
  const float* first;
  const float* second;
  int64_t n_a;
  double operator[](int64_t u) const { return u < n_a ? first[u] : second[u - n_a]; }
};

Row row_of(const Problem& p, int64_t t) {
  if (t < p.n_a) return {p.aa + t * p.n_a, p.ab + t * p.n_b, p.n_a};
  const int64_t r = t - p.n_a;
  return {p.ba + r * p.n_a, p.bb + r * p.n_b, p.n_a};
}

void solve(const Problem& given) {
  // K(b, a) where the caller gave only K(a, b) (ABI 1.9): its transpose.
  Problem p = given;
  std::vector<float> transposed;
  if (p.ba == nullptr) {
    transposed.resize(static_cast<size_t>(p.n_a * p.n_b));
    for (int64_t a = 0; a < p.n_a; ++a) {
      for (int64_t b = 0; b < p.n_b; ++b) transposed[b * p.n_a + a] = p.ab[a * p.n_b + b];
    }
    p.ba = transposed.data();
  }
  const int64_t l = p.n_a + p.n_b;
  std::vector<double> alpha(static_cast<size_t>(l)), yg(alpha.size()), diagonal(alpha.size());
  auto positive = [&](int64_t t) { return t < p.n_a; };
  auto up = [&](int64_t t) { return positive(t) ? alpha[t] < p.C : alpha[t] > 0.0; };
  auto down = [&](int64_t t) { return positive(t) ? alpha[t] > 0.0 : alpha[t] < p.C; };
  for (int64_t t = 0; t < l; ++t) {
    alpha[t] = p.alpha[t];
    yg[t] = positive(t) ? double(p.gradient[t]) : -double(p.gradient[t]);
    diagonal[t] = row_of(p, t)[t];
  }
  constexpr double kLowest = std::numeric_limits<double>::lowest();
  int64_t iterations = 0;
  bool converged = false;
  for (;;) {
    double m = kLowest;
    int64_t i = -1;
    for (int64_t t = 0; t < l; ++t) {
      if (up(t) && -yg[t] >= m) {
        m = -yg[t];
        i = t;
      }
    }
    if (i < 0) {
      converged = true;
      break;
    }
    const Row Ki = row_of(p, i);
    double low = std::numeric_limits<double>::max();
    double best_gain = kLowest;
    int64_t j = -1;
    for (int64_t t = 0; t < l; ++t) {
      if (!down(t)) continue;
      const double value = -yg[t];
      low = std::min(low, value);
      const double b = m - value;
      if (b <= 0.0) continue;
      double a = diagonal[i] + diagonal[t] - 2.0 * Ki[t];
      if (a <= 0.0) a = cae_plugin::kSvmDualTau;
      const double gain = b * b / a;
      if (gain >= best_gain) {
        best_gain = gain;
        j = t;
      }
    }
    if (m - low <= p.eps || j < 0) {
      converged = true;
      break;
    }
    if (iterations == p.max_iterations) break;
    const cae_plugin::SvmDualStep moved = cae_plugin::svm_dual_step(
        alpha[i], positive(i), alpha[j], positive(j), p.C, m + yg[j],
        diagonal[i] + diagonal[j] - 2.0 * Ki[j]);
    alpha[i] = moved.alpha_i;
    alpha[j] = moved.alpha_j;
    const double s = moved.s;
    const Row Kj = row_of(p, j);
    for (int64_t t = 0; t < l; ++t) yg[t] += s * (Ki[t] - Kj[t]);
    ++iterations;
  }
  for (int64_t t = 0; t < l; ++t) {
    p.alpha[t] = static_cast<float>(alpha[t]);
    p.gradient[t] = static_cast<float>(positive(t) ? yg[t] : -yg[t]);
  }
  p.outcome->iterations = iterations;
  p.outcome->converged = converged ? 1 : 0;
}

}  // namespace

// Every problem is checked (shapes, settings, the start) before any is
// solved, so a refused call writes nothing.
cae_status svm_dual_solve(cae_context ctx, cae_svm_dual_problem* problems, int32_t count) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "svm_dual_solve";
    cae_context_s& c = context_arg(ctx, op);
    CAE_REQUIRE(count >= 1, std::string(op) + ": count must be >= 1, got " + std::to_string(count));
    CAE_REQUIRE(problems != nullptr, std::string(op) + ": problems is NULL");
    std::vector<Problem> work(static_cast<size_t>(count));
    for (int32_t k = 0; k < count; ++k) {
      cae_svm_dual_problem& p = problems[k];
      cae_plugin::check_svm_dual_header(k, &p);
      const cae_tensor_s& aa = tensor_arg(c, p.kernel_aa, op, "kernel_aa");
      const cae_tensor_s& ab = tensor_arg(c, p.kernel_ab, op, "kernel_ab");
      // NULL (ABI 1.9): K(b, a) is kernel_ab's transpose, made by solve().
      const cae_tensor_s* ba =
          p.kernel_ba ? &tensor_arg(c, p.kernel_ba, op, "kernel_ba") : nullptr;
      const cae_tensor_s& bb = tensor_arg(c, p.kernel_bb, op, "kernel_bb");
      cae_tensor_s& ta = tensor_arg(c, p.alpha, op, "alpha");
      cae_tensor_s& tg = tensor_arg(c, p.gradient, op, "gradient");
      const cae_plugin::SvmDualDims d = cae_plugin::check_svm_dual_problem(
          k, p, {aa.shape, ab.shape, ba ? &ba->shape : nullptr, bb.shape, ta.shape, tg.shape});
      cae_plugin::check_svm_dual_own_tensors(problems, k);
      cae_plugin::check_svm_dual_start(k, d, p.C, ta.data(), tg.data());
      work[static_cast<size_t>(k)] = {aa.data(), ab.data(), ba ? ba->data() : nullptr,
                                      bb.data(), ta.data(), tg.data(), d.n_a, d.n_b, p.C, p.eps,
                                      p.max_iterations, &p};
    }
    parallel_for(c.threads, count, [&](int64_t k) { solve(work[static_cast<size_t>(k)]); });
  });
}

}  // namespace cae_cpu
