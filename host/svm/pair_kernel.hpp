// The kernel of one class pair as the SMO solver reads it: four blocks
//     [ K(a,a)  K(a,b) ]
//     [ K(b,a)  K(b,b) ]
// that need not be one matrix. The diagonal blocks K(a,a) and K(b,b) are
// computed once per training and shared by every pair of their class
// (ovo_trainer.cpp), so a pair owns only its off-diagonal blocks; a dense
// [l, l] kernel is the special case of four views into one matrix.
//
// The values are float32 as the backend computed them, or unorm16
// (kernel_values.hpp): an RBF kernel's values, all in [0, 1], as 16-bit
// fixed point, which halves the bytes every SMO step streams.
#pragma once

#include <cstdint>

#include "svm/kernel_values.hpp"

namespace cae::svm {

template <class Value>
struct PairKernelOf {
  int64_t first_rows = 0;   // rows of class a: the pair's rows [0, first_rows)
  int64_t second_rows = 0;  // rows of class b: the pair's rows [first_rows, size())
  // block[s][t]: rows of side s against the rows of side t, row-major with
  // stride[s][t] values from one row to the next.
  const Value* block[2][2] = {{nullptr, nullptr}, {nullptr, nullptr}};
  int64_t stride[2][2] = {{0, 0}, {0, 0}};

  // Views of one row-major [l, l] matrix whose first `first_rows` rows are class a's.
  static PairKernelOf dense(const Value* kernel, int64_t l, int64_t first_rows) {
    PairKernelOf view;
    view.first_rows = first_rows;
    view.second_rows = l - first_rows;
    view.block[0][0] = kernel;
    view.block[0][1] = kernel + first_rows;
    view.block[1][0] = kernel + first_rows * l;
    view.block[1][1] = kernel + first_rows * l + first_rows;
    for (auto& side : view.stride) side[0] = side[1] = l;
    return view;
  }

  int64_t size() const { return first_rows + second_rows; }

  // Row r of the pair's kernel as two contiguous segments: K(r, t) is
  // against_first[t] for t < first_rows, against_second[t - first_rows] after.
  struct Row {
    const Value* against_first = nullptr;
    const Value* against_second = nullptr;
  };
  Row row(int64_t r) const {
    const int side = r < first_rows ? 0 : 1;
    const int64_t within = side == 0 ? r : r - first_rows;
    return {block[side][0] + within * stride[side][0], block[side][1] + within * stride[side][1]};
  }
  // K(r, t) as a double (a unorm16 value scaled back to [0, 1]).
  double at(int64_t r, int64_t t) const {
    const Row values = row(r);
    return kernel_value(t < first_rows ? values.against_first[t]
                                       : values.against_second[t - first_rows]);
  }
};

using PairKernel = PairKernelOf<float>;
using PairKernelUnorm16 = PairKernelOf<uint16_t>;

}  // namespace cae::svm
