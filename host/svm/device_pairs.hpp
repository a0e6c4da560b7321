// The one-vs-one SVM's class pairs solved by the backend (svm_dual_solve,
// ABI 1.8), their kernels computed on the device and never downloaded.
//
// On the host path (pair_run.hpp) the backend computes each pair's kernel,
// it comes down to host memory and a worker thread runs SMO on it; on a GPU
// the download and the host's SMO are most of the SVM's time. Here every
// class's standardised rows go up once, each class's diagonal block K(c,c)
// is computed once per kernel and shared by the class's pairs, each pair adds
// K(a,b) and K(b,a), and the backend solves the pairs side by side (a CUDA
// backend: one thread block per pair, all of a batch in one launch). Only the
// alphas (and, between the Cs of a search, nothing at all) come back.
//
// Every pair of every stage (kernel) is one job; the jobs go to the backend
// in batches that fit its free memory, pairs of several stages in one batch
// when they fit, so the device solves as many pairs at once as it holds. For
// each C of the ascending list a batch is solved once, each C starting from
// the previous one's alphas and gradient as they are (warm_search.hpp says
// why that start is right); the first from zero.
#pragma once

#include <functional>
#include <vector>

#include "plugin/context.hpp"
#include "svm/class_layout.hpp"
#include "svm/features.hpp"
#include "svm/kernel_blocks.hpp"
#include "svm/pair_solver.hpp"

namespace cae::svm {

struct DevicePairInput {
  const FeatureSet* train = nullptr;
  const ClassLayout* layout = nullptr;
  const Standardizer* standardizer = nullptr;
  std::vector<KernelSpec> specs;    // the stages: every pair is solved for each
  std::vector<double> ascending_Cs; // and for each of these, warm-started
  double eps = 1e-3;
  // The pairs to solve (a rank's share), each at most once; empty: every pair.
  std::vector<ClassPair> pairs;
  // Every class's rows already on each context (one entry per context, in
  // class order, as the search keeps them): a class held in one tile is used
  // as it is; empty, or a class in several tiles: uploaded here.
  std::vector<const std::vector<DeviceRows>*> resident_rows;
  // Called after each batch (done of total jobs, a job being one pair of one
  // stage), on the calling thread or a device's.
  std::function<void(int done, int total)> progress;
};

struct DevicePairTimes {
  double upload_seconds = 0.0;  // class rows to the devices (summed over devices)
  double kernel_seconds = 0.0;  // kernel_matrix calls (summed over devices)
  double solve_seconds = 0.0;   // svm_dual_solve calls and the alphas' downloads
  int batches = 0;
  int largest_batch = 0;        // pairs solved at once
};

// True when `context`'s backend solves the dual problems itself.
bool backend_solves_pairs(const Context& context);

// solutions[stage][k][c]: pair k (input.pairs' order, or class_pairs' when
// empty) of kernel input.specs[stage], for input.ascending_Cs[c]. Each
// solution's `seconds` is its batch's solve time divided by the pairs in it.
// The pairs are spread over `contexts` (one thread each), which must all
// solve pairs (backend_solves_pairs). Throws SvmError or BackendError.
std::vector<std::vector<std::vector<SmoPairSolution>>> solve_pairs_on_backend(
    const std::vector<Context*>& contexts, const DevicePairInput& input,
    DevicePairTimes* times = nullptr);

}  // namespace cae::svm
