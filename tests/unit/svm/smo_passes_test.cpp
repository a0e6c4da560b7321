// SMO's vectorised passes against the one-at-a-time loops they replace: the
// same y G to the last bit and the same chosen variables, on active sets of
// every length from 0 to 40 (whole lanes and tails in both segments), with
// the active set consecutive or gathered, and with equal gains and equal
// violations, which must go to the later row; for kernel rows of float32 and
// of unorm16.
#include "svm/smo_passes.hpp"

#include "svm/kernel_values.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace cae::svm;

namespace {

constexpr double kTau = 1e-12;

// One pair's kernel rows (float32 or unorm16 values) and a packed active set over it.
template <class Value>
struct Fixture {
  size_t first_rows = 0;  // rows of the first class
  size_t rows = 0;
  std::vector<Value> row_i, row_j;  // two kernel rows, [first_rows | second class]
  std::vector<size_t> index;        // active rows, ascending
  std::vector<uint32_t> within;
  std::vector<double> yg, diagonal;
  std::vector<unsigned char> up, down;
  size_t second = 0;

  ActiveSet view() {
    return {yg.data(),     diagonal.data(), up.data(),    down.data(),
            within.data(), second,          index.size(), index.size() == rows};
  }
  RowSegmentsOf<Value> segments(const std::vector<Value>& row) const {
    return {row.data(), row.data() + first_rows};
  }
};

// A stored kernel value drawn from `unit` in [-1, 1] (float32) or from the
// whole unorm16 range, few levels of either when `ties`.
float stored(double unit, float) { return static_cast<float>(unit); }
uint16_t stored(double unit, uint16_t) {
  return static_cast<uint16_t>(std::lround((unit + 1.0) * 0.5 * 65535.0));
}
// K_ti - K_tj as the solver means it: of the values for float32, of the
// integers then scaled for unorm16.
double difference(float ki, float kj) {
  return static_cast<double>(ki) - static_cast<double>(kj);
}
double difference(uint16_t ki, uint16_t kj) {
  return (static_cast<double>(ki) - static_cast<double>(kj)) * kUnorm16Step;
}

// `rows` rows, a random subset active (all of them when `all`), values drawn
// from few levels when `ties` so that equal gains and violations occur.
template <class Value>
Fixture<Value> make_fixture(size_t first_rows, size_t rows, bool all, bool ties,
                            std::mt19937_64& random) {
  Fixture<Value> f;
  f.first_rows = first_rows;
  f.rows = rows;
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> level(-2, 2);
  auto value = [&] { return ties ? 0.25 * level(random) : unit(random); };
  for (size_t t = 0; t < rows; ++t) {
    f.row_i.push_back(stored(value(), Value{}));
    f.row_j.push_back(stored(value(), Value{}));
  }
  for (size_t t = 0; t < rows; ++t) {
    if (all || random() % 3 != 0) f.index.push_back(t);
  }
  f.second = static_cast<size_t>(std::lower_bound(f.index.begin(), f.index.end(), first_rows) -
                                 f.index.begin());
  for (const size_t t : f.index) {
    f.within.push_back(static_cast<uint32_t>(t < first_rows ? t : t - first_rows));
    f.yg.push_back(value());
    f.diagonal.push_back(ties ? 1.0 : 1.0 + 0.1 * unit(random));
    f.up.push_back(random() % 4 != 0);
    f.down.push_back(random() % 4 != 0);
  }
  return f;
}

template <class Value>
Value entry(const Fixture<Value>& f, const std::vector<Value>& row, size_t k) {
  return row[f.index[k]];
}

// The one-at-a-time second choice (the solver's loop before vectorising).
template <class Value>
SecondChoice reference_second(const Fixture<Value>& f, double up_max, double diagonal_i) {
  SecondChoice choice;
  double best_b2 = 0.0;
  double best_a = 1.0;
  for (size_t k = 0; k < f.index.size(); ++k) {
    if (!f.down[k]) continue;
    const double yg = f.yg[k];
    choice.low_max = std::max(choice.low_max, yg);
    const double b = up_max + yg;
    if (b <= 0.0) continue;
    double a = diagonal_i + f.diagonal[k] - 2.0 * kernel_value(entry(f, f.row_i, k));
    if (a <= 0.0) a = kTau;
    const double b2 = b * b;
    if (b2 * best_a >= best_b2 * a) {
      best_b2 = b2;
      best_a = a;
      choice.j = k;
    }
  }
  return choice;
}

template <class Value>
FirstChoice reference_first(Fixture<Value>& f, double s, bool update) {
  FirstChoice choice;
  for (size_t k = 0; k < f.index.size(); ++k) {
    if (update) f.yg[k] += s * difference(entry(f, f.row_i, k), entry(f, f.row_j, k));
    if (f.up[k] && -f.yg[k] >= choice.violation) choice = {k, -f.yg[k]};
  }
  return choice;
}

bool same_bits(const std::vector<double>& x, const std::vector<double>& y) {
  // (memcmp of an empty vector's NULL data is undefined even for 0 bytes)
  return x.size() == y.size() &&
         (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0);
}

template <class Value>
void check_passes_against_one_at_a_time() {
  for (const bool ties : {false, true}) {
    for (const bool all : {true, false}) {
      for (size_t rows = 0; rows <= 40; ++rows) {
        for (uint64_t seed = 1; seed <= 6; ++seed) {
          std::mt19937_64 random(seed * 1000 + rows);
          const size_t first_rows = rows ? random() % (rows + 1) : 0;
          Fixture<Value> f = make_fixture<Value>(first_rows, rows, all, ties, random);
          CAPTURE(ties);
          CAPTURE(all);
          CAPTURE(rows);
          CAPTURE(seed);
          const double up_max = ties ? 0.5 : 0.3 * std::abs(std::sin(double(seed)));
          const double diagonal_i = 1.0;

          const SecondChoice expected = reference_second(f, up_max, diagonal_i);
          const SecondChoice got =
              choose_second(f.view(), f.segments(f.row_i), up_max, diagonal_i, kTau);
          CHECK(got.j == expected.j);
          CHECK(got.low_max == expected.low_max);

          Fixture<Value> g = f;
          const FirstChoice next_expected = reference_first(g, 0.375, true);
          const FirstChoice next_got =
              update_gradients(f.view(), f.segments(f.row_i), f.segments(f.row_j), 0.375);
          CHECK(same_bits(f.yg, g.yg));
          CHECK(next_got.position == next_expected.position);
          CHECK(next_got.violation == next_expected.violation);

          const FirstChoice alone_expected = reference_first(g, 0.0, false);
          const FirstChoice alone = most_violating_up(f.view());
          CHECK(alone.position == alone_expected.position);
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("SMO's vectorised passes choose as the one-at-a-time loops, to the bit") {
  check_passes_against_one_at_a_time<float>();
}

TEST_CASE("SMO's passes over unorm16 kernel rows choose as the one-at-a-time loops, to the bit") {
  check_passes_against_one_at_a_time<uint16_t>();
}

TEST_CASE("SMO's second choice takes the later of equal gains, across lanes and segments") {
  // Eight active rows, four per class, identical: every gain is equal, so the
  // choice is the last row that may move down.
  Fixture<float> f;
  f.first_rows = 4;
  f.rows = 8;
  f.row_i.assign(8, 0.5f);
  f.row_j.assign(8, 0.25f);
  for (size_t t = 0; t < 8; ++t) {
    f.index.push_back(t);
    f.within.push_back(static_cast<uint32_t>(t < 4 ? t : t - 4));
    f.yg.push_back(0.25);
    f.diagonal.push_back(1.0);
    f.up.push_back(1);
    f.down.push_back(t != 7);
  }
  f.second = 4;
  const SecondChoice got = choose_second(f.view(), f.segments(f.row_i), 0.5, 1.0, kTau);
  CHECK(got.j == 6);
  const FirstChoice first = most_violating_up(f.view());
  CHECK(first.position == 7);
}
