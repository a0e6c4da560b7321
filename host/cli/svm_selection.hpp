// How the SVM's hyper-parameters are chosen: on a validation split of the
// TRAINING features (seeded), never on the test set. Shared by `cae svm` and
// `cae pipeline`:
//   --validation N|auto     rows held out (auto: min(5000, rows / 10); 0: none)
//   --validation-seed S     which rows (the same seed, the same split)
//   --search                try every C of --search-C with every gamma of
//                           --search-gamma, keep the best on the split: per
//                           gamma one kernel for every C, each C started
//                           from the previous one's solution, alphas and
//                           gradient as they are (svm/warm_search.hpp)
//   --search-exhaustive     train every candidate from scratch instead (the
//                           reference; also what the libsvm solver does)
// With a split, the model is trained on the other rows and its validation
// accuracy is reported; the test set is scored once, by the caller.
#pragma once

#include <cmath>
#include <iosfwd>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "command.hpp"
#include "plugin/context.hpp"
#include "svm/ovo_trainer.hpp"
#include "svm/validation.hpp"

namespace cae::cli {

struct ValidationChoice {
  std::string rows = "auto";  // "auto", or a number of rows (0: no split)
  uint64_t seed = 1;
  bool search = false;
  bool exhaustive = false;  // one cold training per candidate
  std::vector<double> Cs;
  // --search-C auto for the linear classifier: a winner at the grid's edge
  // extends it a decade at a time (linear_selection.cpp).
  bool extend_Cs_past_a_winning_edge = false;
  std::vector<std::string> gammas;  // "scale", "auto", a number, or "Kx" (K times scale)
};

// `default_rows`: what --validation defaults to for this command ("0" or "auto").
void add_validation_options(po::options_description& options, const std::string& default_rows);

// Rows --validation holds out of `train_rows` ("auto", or a count).
int64_t validation_rows(const std::string& rows, int64_t train_rows);

// The split of `rows` held-out rows (seeded by choice.seed), said to `log`
// with `trainer` (who trains on the other rows, "the SVM").
svm::ValidationSplit split_and_say(const svm::FeatureSet& train, int64_t rows,
                                   const ValidationChoice& choice, const std::string& trainer,
                                   std::ostream& log);

// "validation accuracy: 74.04% (5000 rows)".
void say_validation_accuracy(double accuracy, int64_t rows, std::ostream& log);

// Throws UsageError for a bad list or count.
ValidationChoice validation_choice_from(const po::variables_map& vm);

// Everything about the SVM stage that the training labels decide, checked
// before any work (`cae svm` after reading its features, `cae pipeline` after
// loading its data, before training): at least two classes, and a validation
// split that fits the rows and leaves every class something to train on.
// `source` names where the labels come from. Throws std::runtime_error for
// too few classes, UsageError for a --validation that does not fit.
void check_svm_training_labels(const std::vector<int32_t>& labels, const ValidationChoice& choice,
                               const std::string& source);

struct SelectedSvm {
  svm::OvoModel model;
  svm::TrainStats stats;
  svm::TrainOptions options;  // as trained (C and gamma chosen by the search)
  int64_t validation_rows = 0;
  double validation_accuracy = NAN;  // NaN without a split
  std::vector<svm::SearchResult> search;
  // The search alone (every candidate trained and scored), without the split
  // and the scale gamma before it; NaN without --search. The winner's model
  // is the search's own, so a search is followed by no further fit.
  double search_seconds = NAN;
  bool search_warm = false;  // one kernel per gamma, each C seeded (else every candidate cold)
};

// Splits, searches (when asked), trains and scores on the split; prints what
// it does to `log`. Kernels and predictions run on every context of
// `contexts` (one per device of --devices); the split refers to rows of
// `train`, which is never copied.
SelectedSvm select_and_train_svm(const std::vector<Context*>& contexts,
                                 const svm::FeatureSet& train, const svm::TrainOptions& base,
                                 const ValidationChoice& choice, std::ostream& log);

// Called once the model is final, before it is scored on the validation
// split, so that writing it (a gigabyte) can run beside the scoring and the
// test prediction: both only read it, and it is not moved afterwards.
using ModelReady = std::function<void(svm::OvoModel& model)>;

// The same into `selected`, which the caller keeps where it is while
// `ready`'s work may read its model.
void select_and_train_svm(const std::vector<Context*>& contexts, const svm::FeatureSet& train,
                          const svm::TrainOptions& base, const ValidationChoice& choice,
                          std::ostream& log, SelectedSvm& selected, const ModelReady& ready);

// Where the SVM training time went, as one line ("svm phases: ...") and as
// report settings ("svm standardize s" -> "0.52", ...), so a run says what
// bounds it: the host passes, the uploads, the kernels or the solvers.
std::string svm_phase_summary(const svm::TrainStats& stats);

// What a search did, as report settings: "svm search" (how many candidates,
// warm-started or exhaustive) and "svm search s" (its time alone); none
// without a search.
std::vector<std::pair<std::string, std::string>> svm_search_settings(const SelectedSvm& selected);
std::vector<std::pair<std::string, std::string>> svm_phase_settings(const svm::TrainStats& stats);

}  // namespace cae::cli
