// The class pairs of a one-vs-one SVM spread over the ranks of a group of
// processes (`cae svm` and `cae pipeline` under a launcher): every rank holds
// the same training rows, solves its share of the pairs on its own device and
// threads, and then every rank receives every pair's solution. A pair's
// solution depends only on its rows, its kernel (the same backend computes it
// on every rank) and the solver settings, never on who solved it or beside
// what, so the model is the one a single process with --devices makes.
#pragma once

#include <cstdint>
#include <vector>

#include "svm/class_layout.hpp"
#include "svm/pair_run.hpp"
#include "svm/pair_solver.hpp"
#include "svm/rank_share.hpp"

namespace cae::svm {

// Rank `rank`'s pairs of `layout`, largest first: the pairs, largest first,
// each go to the rank with the least work so far (work: the pair's rows
// squared, as its kernel; ties to the lower rank). Every pair goes to exactly
// one rank; a rank may get none.
std::vector<ClassPair> pairs_of_rank(const ClassLayout& layout, int32_t rank, int32_t world);

// Limits a run to this rank's pairs when the pairs are spread over ranks
// (a single process keeps every pair).
void take_rank_share(PairRunInput& input, const ClassLayout& layout, const RankShare& ranks);

// Whether the run has pairs to solve in this process: a rank may get none,
// and then runs nothing but still takes part in the exchange.
bool has_pairs_here(const PairRunInput& input);

// Every rank passes the chains of the pairs it solved (each pair's solutions
// in one chain: one per C of a search, or just one); every rank gets every
// rank's chains, in rank order.
std::vector<std::vector<SmoPairSolution>> share_chains(
    const RankShare& ranks, const std::vector<std::vector<SmoPairSolution>>& mine);

// The same for single solutions (train_ovo's).
std::vector<PairSolution> share_solutions(const RankShare& ranks,
                                          const std::vector<PairSolution>& mine);

// The byte form share_chains sends, and back (tests pin the round trip).
std::vector<uint8_t> encode_chains(const std::vector<std::vector<SmoPairSolution>>& chains);
// Throws SvmError for bytes that are not a whole encoding.
std::vector<std::vector<SmoPairSolution>> decode_chains(const std::vector<uint8_t>& bytes);

}  // namespace cae::svm
