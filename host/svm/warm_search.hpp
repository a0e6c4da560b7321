// The (C, gamma) search at the cost of one training per gamma.
//
// An exhaustive search trains one SVM per candidate: every C recomputes the
// kernels its gamma already produced, and every solve starts from zero. Here,
// for each gamma, every class pair's kernel is computed once (the same
// producers, scheduler and memory cap as train_ovo) and the pair's worker
// solves every C on it, in ascending order, each starting from the previous
// C's solution as it is: its alphas lie in [0, C_old], inside the larger box,
// and keep y'a = 0, and its gradient G = Q a - e does not depend on C, so the
// next solve starts at once, with nothing recomputed. (Scaling the alphas by
// C_new / C_old, the classic alpha seeding, moves every free alpha off its
// value; measured on clustered pairs it saved almost no SMO iterations over a
// cold start, where the unscaled start saved half to two thirds.) Solutions
// of all Cs are scored on the validation rows from one kernel between them and
// the training rows, per class. The pairs run in parallel on the worker
// threads, as many as the memory cap allows, every gamma's pairs in one
// stream (run_class_pairs' stages): the next gamma's pairs start while the
// previous gamma's slowest are still solved, and each gamma is scored as
// soon as its last pair is, beside the remaining solves: on a second context
// of the first device, on a thread of its own, where the backend offers
// page-locked host memory (its copies have an engine of their own), else on
// the first producer's context between its kernels.
//
// The stopping rule is SMO's (KKT violation <= eps), so each model is the
// cold start's within the solver's tolerance and the search chooses the same
// candidate as search_hyper_parameters, short of a tie that tolerance can
// tip (tests/unit/svm/warm_search_test.cpp).
#pragma once

#include <vector>

#include "svm/pair_solver.hpp"
#include "svm/validation.hpp"

namespace cae::svm {

// As search_hyper_parameters: results in the same (C-major) order, ties
// broken the same way, the winner's model kept. Each result's `seconds` is
// its gamma's wall time divided by the number of Cs (they share the work).
// Needs the SMO solver (base.solver); throws SvmError otherwise.
SearchOutcome search_hyper_parameters_warm(
    const std::vector<Context*>& contexts, const FeatureSet& train, const ValidationSplit& split,
    const TrainOptions& base, const std::vector<double>& Cs, const std::vector<GammaPolicy>& gammas,
    const std::function<void(size_t, size_t, const SearchResult&)>& progress = {});

// The SMO solutions of one pair for every C of `ascending_Cs` (ascending), each
// started from the previous one's alphas and gradient as they are.
std::vector<SmoPairSolution> solve_pair_for_each_C(const PairRows& rows, const PairKernel& kernel,
                                                   const std::vector<double>& ascending_Cs,
                                                   const SolverSettings& settings);
std::vector<SmoPairSolution> solve_pair_for_each_C(const PairRows& rows,
                                                   const PairKernelUnorm16& kernel,
                                                   const std::vector<double>& ascending_Cs,
                                                   const SolverSettings& settings);

}  // namespace cae::svm
