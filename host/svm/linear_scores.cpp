#include "svm/linear_scores.hpp"

#include <cblas.h>

namespace cae::svm {

void fold_class(const double* weights, double bias, const Standardizer& standardizer, int64_t c,
                int64_t dim, FoldedWeights& folded) {
  double shift = 0.0;
  for (int64_t j = 0; j < dim; ++j) {
    const size_t at = static_cast<size_t>(c * dim + j);
    double w = weights[at];
    if (!standardizer.empty()) {
      w /= standardizer.scale()[static_cast<size_t>(j)];
      shift += w * standardizer.mean()[static_cast<size_t>(j)];
    }
    folded.weights[at] = static_cast<float>(w);
  }
  folded.bias[static_cast<size_t>(c)] = static_cast<float>(bias - shift);
}

void size_folded(int64_t classes, int64_t dim, FoldedWeights& folded) {
  folded.classes = classes;
  folded.dim = dim;
  folded.weights.resize(static_cast<size_t>(classes * dim));
  folded.bias.resize(static_cast<size_t>(classes));
}

FoldedWeights fold_standardizer(const std::vector<double>& weights, const std::vector<double>& bias,
                                const Standardizer& standardizer, int64_t classes, int64_t dim) {
  FoldedWeights folded;
  size_folded(classes, dim, folded);
  for (int64_t c = 0; c < classes; ++c) {
    fold_class(weights.data(), bias[static_cast<size_t>(c)], standardizer, c, dim, folded);
  }
  return folded;
}

void scores_of(const FoldedWeights& folded, const float* x, int64_t rows,
               std::vector<float>& scores) {
  const int64_t k = folded.classes;
  scores.resize(static_cast<size_t>(rows * k));
  for (int64_t i = 0; i < rows; ++i) {
    std::copy(folded.bias.begin(), folded.bias.end(), scores.begin() + i * k);
  }
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(rows), static_cast<int>(k),
              static_cast<int>(folded.dim), 1.0f, x, static_cast<int>(folded.dim),
              folded.weights.data(), static_cast<int>(folded.dim), 1.0f, scores.data(),
              static_cast<int>(k));
}

void single_threaded_blas() { openblas_set_num_threads(1); }

}  // namespace cae::svm
