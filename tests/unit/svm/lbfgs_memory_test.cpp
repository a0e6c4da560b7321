// The vector-free L-BFGS memory (svm/lbfgs_memory.hpp) against the two-loop
// recursion written out on the vectors themselves.
#include "svm/lbfgs_memory.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <deque>
#include <random>
#include <vector>

namespace cae::svm {
namespace {

using Vector = std::vector<double>;

double dot_of(const Vector& a, const Vector& b) {
  double sum = 0.0;
  for (size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

// -H g by Nocedal & Wright's Algorithm 7.4 on the stored pairs.
Vector two_loop(const Vector& g, const std::deque<Vector>& s, const std::deque<Vector>& y) {
  Vector q = g;
  Vector alpha(s.size());
  for (size_t m = s.size(); m-- > 0;) {
    alpha[m] = dot_of(s[m], q) / dot_of(y[m], s[m]);
    for (size_t i = 0; i < q.size(); ++i) q[i] -= alpha[m] * y[m][i];
  }
  if (!s.empty()) {
    const double scale = dot_of(s.back(), y.back()) / dot_of(y.back(), y.back());
    for (double& v : q) v *= scale;
  }
  for (size_t m = 0; m < s.size(); ++m) {
    const double beta = dot_of(y[m], q) / dot_of(y[m], s[m]);
    for (size_t i = 0; i < q.size(); ++i) q[i] += (alpha[m] - beta) * s[m][i];
  }
  for (double& v : q) v = -v;
  return q;
}

// A quadratic's gradient A x - b with A diagonal and positive: its pairs
// have positive curvature, as L-BFGS's do.
struct Quadratic {
  Vector diagonal, b;
  Vector gradient(const Vector& x) const {
    Vector g(x.size());
    for (size_t i = 0; i < x.size(); ++i) g[i] = diagonal[i] * x[i] - b[i];
    return g;
  }
};

Quadratic random_quadratic(size_t n, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> scale(0.5, 4.0), value(-1.0, 1.0);
  Quadratic q{Vector(n), Vector(n)};
  for (size_t i = 0; i < n; ++i) {
    q.diagonal[i] = scale(random);
    q.b[i] = value(random);
  }
  return q;
}

// Walks `steps` L-BFGS-like steps (x += 0.3 d) keeping `pairs` pairs, and
// checks each direction against the two-loop recursion; returns the last.
Vector walk(size_t n, int threads, size_t pairs, int steps, unsigned seed) {
  const Quadratic f = random_quadratic(n, seed);
  LbfgsMemory memory(pairs, threads);
  Vector x(n, 0.0), g = f.gradient(x), d;
  memory.start(g);
  std::deque<Vector> s, y;
  for (int step = 0; step < steps; ++step) {
    const double slope = memory.direction(g, d);
    const Vector expected = two_loop(g, s, y);
    double largest = 0.0, difference = 0.0;
    for (size_t i = 0; i < n; ++i) {
      largest = std::max(largest, std::fabs(expected[i]));
      difference = std::max(difference, std::fabs(expected[i] - d[i]));
    }
    CAPTURE(step);
    CHECK(difference <= 1e-10 * largest);
    CHECK(slope == doctest::Approx(dot_of(g, d)).epsilon(1e-10));
    CHECK(slope < 0.0);
    CHECK(memory.gradient_norm2() == doctest::Approx(dot_of(g, g)).epsilon(1e-12));
    Vector next(n);
    for (size_t i = 0; i < n; ++i) next[i] = x[i] + 0.3 * d[i];
    const Vector next_gradient = f.gradient(next);
    Vector si(n), yi(n);
    for (size_t i = 0; i < n; ++i) {
      si[i] = next[i] - x[i];
      yi[i] = next_gradient[i] - g[i];
    }
    CHECK(memory.advance(x, next, g, next_gradient));
    s.push_back(si);
    y.push_back(yi);
    if (s.size() > pairs) {
      s.pop_front();
      y.pop_front();
    }
    x = next;
    g = next_gradient;
  }
  return d;
}

TEST_CASE("the vector-free directions are the two-loop recursion's, pairs dropped oldest first") {
  walk(3000, 1, 4, 9, 7);  // the memory fills, then drops its oldest pair five times
  walk(37, 2, 10, 6, 11);  // fewer entries than parts
}

TEST_CASE("the L-BFGS memory's directions do not depend on the thread count") {
  // 70,000 entries: up to four threads over the fixed parts.
  const Vector one = walk(70000, 1, 3, 5, 3);
  const Vector four = walk(70000, 4, 3, 5, 3);
  CHECK(one == four);
}

TEST_CASE("fixed_order_norm2 is |v|^2, the same bits on any thread count, and the memory's") {
  std::mt19937 random(5);
  std::normal_distribution<double> normal;
  Vector v(70000);
  for (double& x : v) x = normal(random);
  const double one = fixed_order_norm2(v, 1);
  CHECK(one == doctest::Approx(dot_of(v, v)).epsilon(1e-12));
  CHECK(fixed_order_norm2(v, 4) == one);
  LbfgsMemory memory(3, 2);
  memory.start(v);
  CHECK(memory.gradient_norm2() == one);
  CHECK(fixed_order_norm2(Vector{3.0, 4.0}, 8) == 25.0);
  CHECK(fixed_order_norm2(Vector{}, 2) == 0.0);
}

TEST_CASE("a pair of negative curvature is not kept; forget() returns to steepest descent") {
  const size_t n = 50;
  LbfgsMemory memory(5, 1);
  Vector x(n, 0.0), g(n, 1.0), d;
  memory.start(g);
  CHECK(memory.empty());
  CHECK(memory.direction(g, d) == doctest::Approx(-double(n)));
  for (size_t i = 0; i < n; ++i) CHECK(d[i] == -g[i]);
  // The gradient falls along the step... of x = 0 -> 1 it rises: y . s > 0.
  Vector next(n, 1.0), next_gradient(n, 2.0);
  CHECK(memory.advance(x, next, g, next_gradient));
  CHECK_FALSE(memory.empty());
  // From there a step whose gradient falls along it: y . s < 0, not kept.
  Vector further(n, 2.0), falling(n, 1.5);
  CHECK_FALSE(memory.advance(next, further, next_gradient, falling));
  // The current gradient is the new one even so.
  CHECK(memory.gradient_norm2() == doctest::Approx(1.5 * 1.5 * double(n)));
  memory.forget();
  CHECK(memory.empty());
  CHECK(memory.direction(falling, d) == doctest::Approx(-1.5 * 1.5 * double(n)));
  for (size_t i = 0; i < n; ++i) CHECK(d[i] == -falling[i]);
}

}  // namespace
}  // namespace cae::svm
