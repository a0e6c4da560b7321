#include "svm/lbfgs_memory.hpp"

#include <algorithm>
#include <cstdint>

#include "svm/kept_threads.hpp"

namespace cae::svm {
namespace {

// The vectors are cut into this many fixed parts for every pass, so each
// dot product is summed in the same order whatever the thread count.
constexpr int64_t kDotParts = 64;
// Within a part, this many entries at a time: their step, change and
// gradient stay in cache while every stored vector streams past them.
constexpr size_t kDotBlock = 1024;
// A thread for at least this many entries: below it, waking a thread
// costs more than its share of the pass.
constexpr size_t kEntriesPerThread = 8192;

int pass_threads(int threads, size_t n) {
  return static_cast<int>(std::max<size_t>(1, std::min<size_t>(threads, n / kEntriesPerThread)));
}

// Runs body(begin, end, sums) over the fixed parts of [0, n), each part
// with `width` sums of its own, and returns the sums added in part order.
template <class Body>
std::vector<double> part_sums(int threads, size_t n, size_t width, const Body& body) {
  std::vector<double> parts(static_cast<size_t>(kDotParts) * width, 0.0);
  const int64_t count =
      for_each_fixed_part_kept(pass_threads(threads, n), static_cast<int64_t>(n), kDotParts,
                               [&](int64_t part, int64_t begin, int64_t end) {
                                 body(static_cast<size_t>(begin), static_cast<size_t>(end),
                                      parts.data() + static_cast<size_t>(part) * width);
                               });
  std::vector<double> sums(width, 0.0);
  for (int64_t part = 0; part < count; ++part) {
    for (size_t w = 0; w < width; ++w) sums[w] += parts[static_cast<size_t>(part) * width + w];
  }
  return sums;
}

double block_dot(const double* a, const double* b, size_t n) {
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

// out[k * stride] += a[k] . b[k] over one block, k < 6, in one loop: six
// independent chains of additions, each summed in block_dot's order (the
// same bits), where six loops one after another kept the core waiting on
// every addition of one chain (a step's dot products are ~66 per entry:
// bound by that latency, not by memory).
void six_dots(const double* const (&a)[6], const double* const (&b)[6], size_t n, double* out,
              size_t stride) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, s5 = 0.0;
  for (size_t i = 0; i < n; ++i) {
    s0 += a[0][i] * b[0][i];
    s1 += a[1][i] * b[1][i];
    s2 += a[2][i] * b[2][i];
    s3 += a[3][i] * b[3][i];
    s4 += a[4][i] * b[4][i];
    s5 += a[5][i] * b[5][i];
  }
  out[0] += s0;
  out[stride] += s1;
  out[2 * stride] += s2;
  out[3 * stride] += s3;
  out[4 * stride] += s4;
  out[5 * stride] += s5;
}

}  // namespace

double fixed_order_norm2(const std::vector<double>& v, int threads) {
  return part_sums(std::max(1, threads), v.size(), 1, [&](size_t begin, size_t end, double* sums) {
    sums[0] = block_dot(v.data() + begin, v.data() + begin, end - begin);
  })[0];
}

LbfgsMemory::LbfgsMemory(size_t pairs, int threads)
    : limit_(std::max<size_t>(1, pairs)), threads_(std::max(1, threads)) {}

void LbfgsMemory::start(const std::vector<double>& gradient) {
  forget();
  gg_ = fixed_order_norm2(gradient, threads_);
}

void LbfgsMemory::forget() {
  pairs_.clear();
  ss_.clear();
  sy_.clear();
  yy_.clear();
  gs_.clear();
  gy_.clear();
}

double LbfgsMemory::direction(const std::vector<double>& gradient,
                              std::vector<double>& direction) const {
  // The two-loop recursion on q = sum a_i s_i + sum b_i y_i + c g.
  const size_t P = pairs_.size();
  std::vector<double> a(P, 0.0), b(P, 0.0), alpha(P, 0.0);
  double c = 1.0;
  auto s_dot_q = [&](size_t m) {
    double sum = c * gs_[m];
    for (size_t i = 0; i < P; ++i) sum += a[i] * ss_[m][i] + b[i] * sy_[m][i];
    return sum;
  };
  auto y_dot_q = [&](size_t m) {
    double sum = c * gy_[m];
    for (size_t i = 0; i < P; ++i) sum += a[i] * sy_[i][m] + b[i] * yy_[m][i];
    return sum;
  };
  for (size_t m = P; m-- > 0;) {
    alpha[m] = s_dot_q(m) / sy_[m][m];
    b[m] -= alpha[m];
  }
  if (P > 0) {
    const double scale = sy_[P - 1][P - 1] / yy_[P - 1][P - 1];
    for (size_t i = 0; i < P; ++i) {
      a[i] *= scale;
      b[i] *= scale;
    }
    c *= scale;
  }
  for (size_t m = 0; m < P; ++m) a[m] += alpha[m] - y_dot_q(m) / sy_[m][m];
  // direction = -q; its slope g . direction from the same dot products.
  double slope = -c * gg_;
  for (size_t i = 0; i < P; ++i) slope -= a[i] * gs_[i] + b[i] * gy_[i];
  const size_t n = gradient.size();
  direction.resize(n);
  for_each_fixed_part_kept(pass_threads(threads_, n), static_cast<int64_t>(n), kDotParts,
                           [&](int64_t, int64_t first, int64_t last) {
                             double* d = direction.data();
                             for (size_t i = size_t(first); i < size_t(last); ++i)
                               d[i] = -c * gradient[i];
                             for (size_t m = 0; m < P; ++m) {
                               const double* s = pairs_[m].s.data();
                               const double* y = pairs_[m].y.data();
                               for (size_t i = size_t(first); i < size_t(last); ++i) {
                                 d[i] -= a[m] * s[i] + b[m] * y[i];
                               }
                             }
                           });
  return slope;
}

bool LbfgsMemory::advance(const std::vector<double>& theta, const std::vector<double>& next,
                          const std::vector<double>& gradient,
                          const std::vector<double>& next_gradient) {
  const size_t n = theta.size();
  const size_t P = pairs_.size();
  // The vectors of the pair dropped last time, if any: new pages for two
  // vectors a step were a page fault every 4 KiB.
  Pair fresh = std::move(spare_);
  spare_ = Pair();
  fresh.s.resize(n);
  fresh.y.resize(n);
  // Sums: [0, P) s.s_j, [P, 2P) s.y_j, [2P, 3P) y.s_j, [3P, 4P) y.y_j,
  // [4P, 5P) g'.s_j, [5P, 6P) g'.y_j, then s.s, s.y, y.y, g'.s, g'.y, g'.g'
  // (s, y the new pair, g' the next gradient).
  const size_t width = 6 * P + 6;
  const std::vector<double> sums =
      part_sums(threads_, n, width, [&](size_t begin, size_t end, double* out) {
        for (size_t b0 = begin; b0 < end; b0 += kDotBlock) {
          const size_t len = std::min(kDotBlock, end - b0);
          double* s = fresh.s.data() + b0;
          double* y = fresh.y.data() + b0;
          const double* g = next_gradient.data() + b0;
          for (size_t i = 0; i < len; ++i) {
            s[i] = next[b0 + i] - theta[b0 + i];
            y[i] = g[i] - gradient[b0 + i];
          }
          for (size_t j = 0; j < P; ++j) {
            const double* sj = pairs_[j].s.data() + b0;
            const double* yj = pairs_[j].y.data() + b0;
            six_dots({s, s, y, y, g, g}, {sj, yj, sj, yj, sj, yj}, len, out + j, P);
          }
          six_dots({s, s, y, g, g, g}, {s, y, y, s, y, g}, len, out + 6 * P, 1);
        }
      });
  const double* self = sums.data() + 6 * P;
  gs_.assign(sums.begin() + long(4 * P), sums.begin() + long(5 * P));
  gy_.assign(sums.begin() + long(5 * P), sums.begin() + long(6 * P));
  gg_ = self[5];
  // Only a pair of positive curvature keeps H positive definite.
  const bool keep = self[1] > 1e-12 * self[2];
  if (!keep) {
    spare_ = std::move(fresh);
    return false;
  }
  for (size_t j = 0; j < P; ++j) {
    ss_[j].push_back(sums[j]);          // s_j . s
    sy_[j].push_back(sums[2 * P + j]);  // s_j . y
    yy_[j].push_back(sums[3 * P + j]);  // y_j . y
  }
  std::vector<double> ss_row(sums.begin(), sums.begin() + long(P));
  std::vector<double> sy_row(sums.begin() + long(P), sums.begin() + long(2 * P));
  std::vector<double> yy_row(sums.begin() + long(3 * P), sums.begin() + long(4 * P));
  ss_row.push_back(self[0]);
  sy_row.push_back(self[1]);
  yy_row.push_back(self[2]);
  ss_.push_back(std::move(ss_row));
  sy_.push_back(std::move(sy_row));
  yy_.push_back(std::move(yy_row));
  gs_.push_back(self[3]);
  gy_.push_back(self[4]);
  pairs_.push_back(std::move(fresh));
  if (pairs_.size() > limit_) {
    spare_ = std::move(pairs_.front());
    pairs_.pop_front();
    for (auto* matrix : {&ss_, &sy_, &yy_}) {
      matrix->erase(matrix->begin());
      for (std::vector<double>& row : *matrix) row.erase(row.begin());
    }
    gs_.erase(gs_.begin());
    gy_.erase(gy_.begin());
  }
  return true;
}

}  // namespace cae::svm
