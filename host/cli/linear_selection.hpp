// The linear classifier's counterpart of svm_selection.hpp: the same
// validation split (--validation, --validation-seed), and with --search the C
// of --search-C with the best validation accuracy (--search-gamma does not
// apply). The Cs are trained in ascending order, each starting from the last
// one's weights.
#pragma once

#include <cmath>
#include <iosfwd>
#include <utility>
#include <vector>

#include "svm/features.hpp"
#include "svm/linear_trainer.hpp"
#include "svm_selection.hpp"

namespace cae::cli {

struct SelectedLinear {
  svm::LinearModel model;
  double C = 1.0;  // as trained (chosen by the search)
  int64_t validation_rows = 0;
  double validation_accuracy = NAN;                // NaN without a split
  std::vector<std::pair<double, double>> search;   // (C, validation accuracy), in --search-C order,
                                                  // then the Cs past a winning end of an auto grid
  double seconds = 0.0;
};

SelectedLinear select_and_train_linear(const svm::FeatureSet& train,
                                       const svm::LinearOptions& base,
                                       const ValidationChoice& choice, std::ostream& log);

}  // namespace cae::cli
