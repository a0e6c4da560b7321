// The two passes over SMO's active set that every iteration makes (choosing
// the second variable; updating the gradients and finding the next first
// variable), written for the vector units: four values of a pass at a time,
// each lane keeping its own running best over the variables it sees, the
// lanes' bests then taken in row order by the one-at-a-time rule. Same
// arithmetic per variable as the one-at-a-time loops (no contraction into
// fused multiply-adds) and the same choice: the first variable's choice is a
// plain comparison of doubles, and the second's compares gains b^2/a
// cross-multiplied, which takes the same variable whenever no two gains lie
// within rounding of each other without being equal (equal gains go to the
// later row, as one at a time). The functions are compiled twice, for AVX2
// and for the baseline x86-64, and the loader picks one for the CPU at hand;
// each takes kernel rows of float32 or of unorm16 (kernel_values.hpp), whose
// entries it scales back to [0, 1] as it reads them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace cae::svm {

// The active set, packed in ascending row order: y G, the kernel's diagonal,
// whether the variable may move up or down, and its entry in a kernel row's
// segment (variables [0, second) read the row's first segment, the rest its
// second).
struct ActiveSet {
  double* yg = nullptr;
  const double* diagonal = nullptr;
  const unsigned char* up = nullptr;
  const unsigned char* down = nullptr;
  const uint32_t* within = nullptr;
  size_t second = 0;
  size_t count = 0;
  // Every variable active: within[k] is k, and k - second from second on.
  bool consecutive = false;
};

// A kernel row as two segments: against the first class's rows and the second's.
template <class Value>
struct RowSegmentsOf {
  const Value* first = nullptr;
  const Value* second = nullptr;
};
using RowSegments = RowSegmentsOf<float>;
using RowSegmentsUnorm16 = RowSegmentsOf<uint16_t>;

constexpr size_t kNoVariable = std::numeric_limits<size_t>::max();

struct SecondChoice {
  size_t j = kNoVariable;  // packed index, kNoVariable when no variable qualifies
  double low_max = -std::numeric_limits<double>::infinity();  // max y G over I_low
};
// WSS3's j for the first variable i (its row, -y G_i = up_max, K_ii =
// diagonal_i): among the variables that may move down with b = up_max + y G
// > 0, the largest gain b^2 / a, a = K_ii + K_jj - 2 K_ij (tau when not
// positive); ties to the later row.
SecondChoice choose_second(const ActiveSet& set, RowSegments row_i, double up_max,
                           double diagonal_i, double tau);
SecondChoice choose_second(const ActiveSet& set, RowSegmentsUnorm16 row_i, double up_max,
                           double diagonal_i, double tau);

struct FirstChoice {
  size_t position = kNoVariable;                                // packed index of the next i
  double violation = -std::numeric_limits<double>::infinity();  // its -y G
};
// y G_t += s (K_ti - K_tj) for every active t, then the next first variable:
// the last of the largest -y G among those that may move up.
FirstChoice update_gradients(const ActiveSet& set, RowSegments row_i, RowSegments row_j, double s);
FirstChoice update_gradients(const ActiveSet& set, RowSegmentsUnorm16 row_i,
                             RowSegmentsUnorm16 row_j, double s);
// The first variable alone (after the active set changed).
FirstChoice most_violating_up(const ActiveSet& set);

// sum[t] += weight * row[t] for t < count: one support vector's share of
// every gradient while the gradients are rebuilt.
void add_weighted_row(double* sum, const float* row, size_t count, double weight);
void add_weighted_row(double* sum, const uint16_t* row, size_t count, double weight);

}  // namespace cae::svm
