// Hyper-parameters chosen on held-out TRAINING images, never on the test set.
// A validation split is a seeded random subset of the training rows; a search
// trains one SVM per (C, gamma) candidate on the other rows and scores it on
// the split. The test set is then used once, for the final number.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "plugin/context.hpp"
#include "svm/features.hpp"
#include "svm/ovo_trainer.hpp"

namespace cae::svm {

// The training part stays in the caller's FeatureSet, named by row index:
// copying it would hold the features twice (1.5 GB at 45,000 x 8,192) for as
// long as the SVM trains. The held-out part is copied (prediction reads whole
// tiles of consecutive rows); it is the small side.
struct ValidationSplit {
  std::vector<int64_t> fit_rows;  // rows of the training set the SVM is trained on, ascending
  FeatureSet validation;          // the held-out rows
};

// The rows (ascending) a split of `validation_rows` rows holds out of a
// training set with these labels, found from the labels alone so that a
// command can check a split before it computes any features. Throws SvmError
// unless 0 < validation_rows < rows and every class keeps rows on both sides.
std::vector<int64_t> held_out_rows(const std::vector<int32_t>& labels, int64_t validation_rows,
                                   uint64_t seed);

// Holds out `validation_rows` rows chosen by a permutation seeded with
// `seed` (the same seed gives the same split on every machine). Throws
// SvmError unless 0 < validation_rows < train.rows and every class keeps
// rows on both sides.
ValidationSplit split_for_validation(const FeatureSet& train, int64_t validation_rows,
                                     uint64_t seed);

struct SearchCandidate {
  double C = 1.0;
  GammaPolicy gamma;
};

struct SearchResult {
  SearchCandidate candidate;
  double validation_accuracy = 0.0;  // in [0, 1]
  float gamma_value = 0.0f;          // what the policy resolved to
  double seconds = 0.0;
  // The warm-started search's account of where this candidate's time went:
  // SMO iterations and solver seconds summed over the class pairs (seconds
  // of worker threads, which run side by side) for this C alone, and, on the
  // search's last candidate, the whole search's phases (empty otherwise).
  int64_t solver_iterations = 0;
  double solver_seconds = 0.0;
  std::string phases;
};

struct SearchOutcome {
  std::vector<SearchResult> results;  // one per candidate, in search order
  OvoModel best_model;                // the model of best_of(results), kept, not retrained
  TrainStats best_stats;
};

// Every combination of `Cs` and `gammas` (in that order), trained with `base`'s
// other settings on split.fit_rows of `train` and scored on split.validation,
// on every context of `contexts` (one per device). `progress` is called after
// each candidate (done, total, its result).
SearchOutcome search_hyper_parameters(
    const std::vector<Context*>& contexts, const FeatureSet& train, const ValidationSplit& split,
    const TrainOptions& base, const std::vector<double>& Cs, const std::vector<GammaPolicy>& gammas,
    const std::function<void(size_t, size_t, const SearchResult&)>& progress = {});

// The options a search trains its candidates with: `base`, its kernel values
// auto taken as unorm16 with the RBF kernel (kernel_values.hpp: the search's
// many solves are bound by the kernel rows they stream), float32 otherwise.
TrainOptions search_options(const TrainOptions& base);

// The best result: highest validation accuracy; on a tie the smaller C (the
// simpler model), then the earlier gamma.
const SearchResult& best_of(const std::vector<SearchResult>& results);
// Whether `r` beats `best` by that rule.
bool better_than(const SearchResult& r, const SearchResult& best);

// Fraction of `labels` equal to `truth`.
double accuracy(const std::vector<int32_t>& labels, const std::vector<int32_t>& truth);

}  // namespace cae::svm
