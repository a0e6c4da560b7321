// The linear classifier's scores on raw feature rows: the standardisation
// z = (x - mean) / scale is folded into the weights once,
//     W'[c][j] = W[c][j] / scale[j],  b'[c] = b[c] - sum_j W'[c][j] mean[j],
// so a block of rows is scored by one SGEMM straight from the caller's
// features (no standardised copy of a set that may be gigabytes).
#pragma once

#include <cstdint>
#include <vector>

#include "svm/features.hpp"

namespace cae::svm {

struct FoldedWeights {
  int64_t classes = 0;
  int64_t dim = 0;
  std::vector<float> weights;  // [classes, dim]
  std::vector<float> bias;     // [classes]
};

// `weights` [classes, dim] and `bias` act on standardised rows.
FoldedWeights fold_standardizer(const std::vector<double>& weights, const std::vector<double>& bias,
                                const Standardizer& standardizer, int64_t classes, int64_t dim);

// The same one class at a time, into buffers kept between calls (a trainer
// folds once a pass: fresh vectors of a megabyte were a page fault every
// 4 KiB), so that a caller can fold the classes side by side: size_folded
// once, then fold_class for each class c, whose weights are
// weights[c * dim, (c + 1) * dim). Each class is summed in the same order as
// by fold_standardizer, so the result is its.
void size_folded(int64_t classes, int64_t dim, FoldedWeights& folded);
void fold_class(const double* weights, double bias, const Standardizer& standardizer, int64_t c,
                int64_t dim, FoldedWeights& folded);

// scores [rows, classes] of `rows` consecutive raw rows at `x`.
void scores_of(const FoldedWeights& folded, const float* x, int64_t rows,
               std::vector<float>& scores);

// The host runs SGEMMs on its own threads, one block each: OpenBLAS must not
// start its own on top (and a single-threaded call sums in a fixed order, so
// results do not depend on the thread count).
void single_threaded_blas();

}  // namespace cae::svm
