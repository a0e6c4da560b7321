#include "svm/smo_passes.hpp"

#include <algorithm>
#include <cstring>

#include "svm/kernel_values.hpp"

namespace cae::svm {

namespace {

// Four lanes: one AVX2 register of doubles, two SSE2 ones on the baseline.
constexpr size_t kLanes = 4;
typedef double Doubles __attribute__((vector_size(kLanes * sizeof(double))));
typedef int64_t Masks __attribute__((vector_size(kLanes * sizeof(int64_t))));
typedef float Floats __attribute__((vector_size(kLanes * sizeof(float))));

#define CAE_SMO_CLONES __attribute__((target_clones("avx2", "default")))
#define CAE_SMO_INLINE inline __attribute__((always_inline))

CAE_SMO_INLINE void load(Doubles& v, const double* p) { std::memcpy(&v, p, sizeof v); }
CAE_SMO_INLINE void store(double* p, const Doubles& v) { std::memcpy(p, &v, sizeof v); }
CAE_SMO_INLINE void set_all(Doubles& v, double x) { v = Doubles{x, x, x, x}; }
typedef uint16_t Shorts __attribute__((vector_size(kLanes * sizeof(uint16_t))));

// What the passes need of a stored kernel value: the value (unorm16 scaled
// back to [0, 1]) and the difference of two, K_ti - K_tj. A float32 row's
// arithmetic is exactly as before unorm16 existed; a unorm16 difference is
// taken on the integers (exact) and scaled once.
template <class Value>
struct Stored;
// (Vectors go by reference: passed or returned by value they would change
// the baseline clone's ABI.)
template <>
struct Stored<float> {
  typedef Floats Vector;
  static CAE_SMO_INLINE double value(double raw) { return raw; }
  static CAE_SMO_INLINE void to_value(Doubles&) {}
  static CAE_SMO_INLINE void difference(Doubles& out, const Doubles& ki, const Doubles& kj) {
    out = ki - kj;
  }
  static CAE_SMO_INLINE double difference(double ki, double kj) { return ki - kj; }
};
template <>
struct Stored<uint16_t> {
  typedef Shorts Vector;
  static CAE_SMO_INLINE double value(double raw) { return raw * kUnorm16Step; }
  static CAE_SMO_INLINE void to_value(Doubles& v) { v *= kUnorm16Step; }
  static CAE_SMO_INLINE void difference(Doubles& out, const Doubles& ki, const Doubles& kj) {
    out = (ki - kj) * kUnorm16Step;
  }
  static CAE_SMO_INLINE double difference(double ki, double kj) { return (ki - kj) * kUnorm16Step; }
};

// The stored kernel entries of packed variables k..k+3, unscaled: one load
// where the active set is every variable (their entries are then
// consecutive), else gathered.
template <class Value>
CAE_SMO_INLINE void load_row(Doubles& v, const Value* row, const uint32_t* within, size_t k,
                             bool consecutive) {
  if (consecutive) {
    typename Stored<Value>::Vector f;
    std::memcpy(&f, row + within[k], sizeof f);
    v = __builtin_convertvector(f, Doubles);
  } else {
    v = Doubles{static_cast<double>(row[within[k]]), static_cast<double>(row[within[k + 1]]),
                static_cast<double>(row[within[k + 2]]), static_cast<double>(row[within[k + 3]])};
  }
}

// One candidate of a pass: a lane's (or a tail's) running best.
struct Gain {
  size_t k;
  double b2;
  double a;
};
struct Violation {
  size_t k;
  double value;
};
// The candidates of one pass: per row segment, a running best per lane and
// one for the tail. A fixed array: the passes run every SMO step.
template <class Candidate>
struct Candidates {
  Candidate items[2 * (kLanes + 1)];
  size_t count = 0;
  void push_back(const Candidate& c) { items[count++] = c; }
  Candidate* begin() { return items; }
  Candidate* end() { return items + count; }
};

// The second variable's scan over packed variables [begin, end), reading the
// row segment `row` at set.within: every lane's best appended to `found`.
template <class Value>
CAE_SMO_INLINE void scan_second(const ActiveSet& set, const Value* row, size_t begin, size_t end,
                                double up_max, double diagonal_i, double tau,
                                Candidates<Gain>& found, double& low_max) {
  const uint32_t* w = set.within;
  Doubles low, best_b2, best_a, up, di, taus, zero;
  set_all(low, low_max);
  set_all(best_b2, 0.0);
  set_all(best_a, 1.0);
  set_all(up, up_max);
  set_all(di, diagonal_i);
  set_all(taus, tau);
  set_all(zero, 0.0);
  Masks best_k = Masks{-1, -1, -1, -1};
  size_t k = begin;
  for (; k + kLanes <= end; k += kLanes) {
    const Masks down = Masks{set.down[k], set.down[k + 1], set.down[k + 2], set.down[k + 3]} != 0;
    Doubles yg, diagonal;
    load(yg, set.yg + k);
    load(diagonal, set.diagonal + k);
    low = (down & (low < yg)) ? yg : low;
    const Doubles b = up + yg;
    Doubles k_it;
    load_row(k_it, row, w, k, set.consecutive);
    Stored<Value>::to_value(k_it);
    Doubles a = di + diagonal - 2.0 * k_it;
    a = a <= zero ? taus : a;
    const Doubles b2 = b * b;
    const Masks take = down & (b > zero) & (b2 * best_a >= best_b2 * a);
    best_b2 = take ? b2 : best_b2;
    best_a = take ? a : best_a;
    const int64_t k0 = static_cast<int64_t>(k);
    best_k = take ? Masks{k0, k0 + 1, k0 + 2, k0 + 3} : best_k;
  }
  for (size_t lane = 0; lane < kLanes; ++lane) {
    low_max = std::max(low_max, low[lane]);
    if (best_k[lane] >= 0)
      found.push_back({static_cast<size_t>(best_k[lane]), best_b2[lane], best_a[lane]});
  }
  // The tail, one at a time: one more running best.
  Gain tail{kNoVariable, 0.0, 1.0};
  for (; k < end; ++k) {
    if (!set.down[k]) continue;
    const double yg = set.yg[k];
    low_max = std::max(low_max, yg);
    const double b = up_max + yg;
    if (b <= 0.0) continue;
    double a = diagonal_i + set.diagonal[k] -
               2.0 * Stored<Value>::value(static_cast<double>(row[w[k]]));
    if (a <= 0.0) a = tau;
    const double b2 = b * b;
    if (b2 * tail.a >= tail.b2 * a) tail = {k, b2, a};
  }
  if (tail.k != kNoVariable) found.push_back(tail);
}

// y G += s (K_i - K_j) over [begin, end) (s == 0: no update), and the lanes'
// last largest -y G among those that may move up, appended to `found`.
template <class Value>
CAE_SMO_INLINE void scan_first(const ActiveSet& set, const Value* row_i, const Value* row_j,
                               size_t begin, size_t end, double s, bool update,
                               Candidates<Violation>& found) {
  const uint32_t* w = set.within;
  Doubles steps, best;
  set_all(steps, s);
  set_all(best, -std::numeric_limits<double>::infinity());
  Masks best_k = Masks{-1, -1, -1, -1};
  size_t k = begin;
  for (; k + kLanes <= end; k += kLanes) {
    Doubles yg;
    load(yg, set.yg + k);
    if (update) {
      Doubles ki, kj;
      load_row(ki, row_i, w, k, set.consecutive);
      load_row(kj, row_j, w, k, set.consecutive);
      Doubles difference;
      Stored<Value>::difference(difference, ki, kj);
      yg += steps * difference;
      store(set.yg + k, yg);
    }
    const Masks up = Masks{set.up[k], set.up[k + 1], set.up[k + 2], set.up[k + 3]} != 0;
    const Doubles negated = -yg;
    const Masks take = up & (negated >= best);
    best = take ? negated : best;
    const int64_t k0 = static_cast<int64_t>(k);
    best_k = take ? Masks{k0, k0 + 1, k0 + 2, k0 + 3} : best_k;
  }
  for (size_t lane = 0; lane < kLanes; ++lane) {
    if (best_k[lane] >= 0) found.push_back({static_cast<size_t>(best_k[lane]), best[lane]});
  }
  Violation tail{kNoVariable, -std::numeric_limits<double>::infinity()};
  for (; k < end; ++k) {
    if (update) {
      set.yg[k] += s * Stored<Value>::difference(static_cast<double>(row_i[w[k]]),
                                                 static_cast<double>(row_j[w[k]]));
    }
    if (set.up[k] && -set.yg[k] >= tail.value) tail = {k, -set.yg[k]};
  }
  if (tail.k != kNoVariable) found.push_back(tail);
}

// The lanes' candidates in row order, by the one-at-a-time rules.
SecondChoice merge(Candidates<Gain>& found, double low_max) {
  std::sort(found.begin(), found.end(), [](const Gain& x, const Gain& y) { return x.k < y.k; });
  SecondChoice choice;
  choice.low_max = low_max;
  double best_b2 = 0.0;
  double best_a = 1.0;
  for (const Gain& g : found) {
    if (g.b2 * best_a >= best_b2 * g.a) {
      best_b2 = g.b2;
      best_a = g.a;
      choice.j = g.k;
    }
  }
  return choice;
}

FirstChoice merge(Candidates<Violation>& found) {
  std::sort(found.begin(), found.end(),
            [](const Violation& x, const Violation& y) { return x.k < y.k; });
  FirstChoice choice;
  for (const Violation& v : found) {
    if (v.value >= choice.violation) choice = {v.k, v.value};
  }
  return choice;
}

template <class Value>
CAE_SMO_INLINE SecondChoice choose_second_of(const ActiveSet& set, RowSegmentsOf<Value> row_i,
                                             double up_max, double diagonal_i, double tau) {
  Candidates<Gain> found;
  double low_max = -std::numeric_limits<double>::infinity();
  scan_second(set, row_i.first, 0, set.second, up_max, diagonal_i, tau, found, low_max);
  scan_second(set, row_i.second, set.second, set.count, up_max, diagonal_i, tau, found, low_max);
  return merge(found, low_max);
}

template <class Value>
CAE_SMO_INLINE FirstChoice first_of(const ActiveSet& set, RowSegmentsOf<Value> row_i,
                                    RowSegmentsOf<Value> row_j, double s, bool update) {
  Candidates<Violation> found;
  scan_first(set, row_i.first, row_j.first, 0, set.second, s, update, found);
  scan_first(set, row_i.second, row_j.second, set.second, set.count, s, update, found);
  return merge(found);
}

template <class Value>
CAE_SMO_INLINE void add_weighted_row_of(double* sum, const Value* row, size_t count,
                                        double weight) {
  for (size_t t = 0; t < count; ++t) {
    sum[t] += weight * Stored<Value>::value(static_cast<double>(row[t]));
  }
}

// The clones are plain functions (target_clones takes no templates), one per
// stored value type.
CAE_SMO_CLONES SecondChoice choose_second_clones(const ActiveSet& set, RowSegments row_i,
                                                 double up_max, double diagonal_i, double tau) {
  return choose_second_of(set, row_i, up_max, diagonal_i, tau);
}
CAE_SMO_CLONES SecondChoice choose_second_clones(const ActiveSet& set, RowSegmentsUnorm16 row_i,
                                                 double up_max, double diagonal_i, double tau) {
  return choose_second_of(set, row_i, up_max, diagonal_i, tau);
}

CAE_SMO_CLONES FirstChoice first_clones(const ActiveSet& set, RowSegments row_i, RowSegments row_j,
                                        double s, bool update) {
  return first_of(set, row_i, row_j, s, update);
}
CAE_SMO_CLONES FirstChoice first_clones(const ActiveSet& set, RowSegmentsUnorm16 row_i,
                                        RowSegmentsUnorm16 row_j, double s, bool update) {
  return first_of(set, row_i, row_j, s, update);
}

CAE_SMO_CLONES void add_weighted_row_clones(double* sum, const float* row, size_t count,
                                            double weight) {
  add_weighted_row_of(sum, row, count, weight);
}
CAE_SMO_CLONES void add_weighted_row_clones(double* sum, const uint16_t* row, size_t count,
                                            double weight) {
  add_weighted_row_of(sum, row, count, weight);
}

}  // namespace

SecondChoice choose_second(const ActiveSet& set, RowSegments row_i, double up_max,
                           double diagonal_i, double tau) {
  return choose_second_clones(set, row_i, up_max, diagonal_i, tau);
}
SecondChoice choose_second(const ActiveSet& set, RowSegmentsUnorm16 row_i, double up_max,
                           double diagonal_i, double tau) {
  return choose_second_clones(set, row_i, up_max, diagonal_i, tau);
}

FirstChoice update_gradients(const ActiveSet& set, RowSegments row_i, RowSegments row_j, double s) {
  return first_clones(set, row_i, row_j, s, true);
}
FirstChoice update_gradients(const ActiveSet& set, RowSegmentsUnorm16 row_i,
                             RowSegmentsUnorm16 row_j, double s) {
  return first_clones(set, row_i, row_j, s, true);
}

FirstChoice most_violating_up(const ActiveSet& set) {
  return first_clones(set, RowSegments{}, RowSegments{}, 0.0, false);
}

void add_weighted_row(double* sum, const float* row, size_t count, double weight) {
  add_weighted_row_clones(sum, row, count, weight);
}
void add_weighted_row(double* sum, const uint16_t* row, size_t count, double weight) {
  add_weighted_row_clones(sum, row, count, weight);
}

}  // namespace cae::svm
