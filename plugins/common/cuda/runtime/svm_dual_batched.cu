// The SVM dual solver's kernel with each thread's rows taken four at a time
// (the default; smo-rows=one chooses svm_dual_solve.cu's, one row after
// another, which also holds the launch; svm_dual_kernels.cuh the solve around
// the two passes over the rows, which is all a variant supplies).
//
// A step of a class pair of 9,000 rows gives each of the block's 512 threads
// about 18 rows per pass, and in the one-row kernel a row's loads (its alpha,
// its y G, its diagonal entry and the kernel row's entry) wait behind the
// previous row's branch on the box: the pass costs some 18 memory latencies
// in a row, twice per step, while the SMs hold a handful of blocks each and
// the memory system is nearly idle. Here a thread first loads four rows'
// values, then decides and updates the four: the loads of four rows are in
// flight together. The step is the same: the choices are maxima and minima
// whose ties are broken by the row's index, which no grouping of the rows
// changes, and each row's arithmetic is the one both kernels call
// (offer_gain, updated_yg).
#include "svm_dual.hpp"
#include "svm_dual_kernels.cuh"

namespace cae_cuda {
namespace smo {

namespace {

constexpr int kRowsAtOnce = 4;

// What a pass reads of one row.
struct RowValues {
  double alpha = 0.0, yg = 0.0, diagonal = 0.0;
  float k_i = 0.0f, k_j = 0.0f;
};

// What both passes read of row t: its alpha, its y G and K_it.
__device__ RowValues read_row(const SolverProblem& p, const PairState& state, int64_t t,
                              const PairRows& Ki) {
  RowValues v;
  v.alpha = state.alpha[t];
  v.yg = state.yg[t];
  v.k_i = Ki.at(t, p.n_a);
  return v;
}

// use(t, read(t)) for this thread's rows, four at a time: the four rows'
// reads first, then their uses.
template <class Read, class Use>
__device__ void in_fours(int64_t rows, const Read& read, const Use& use) {
  for (int64_t first = threadIdx.x; first < rows; first += kRowsAtOnce * int64_t(kSolverThreads)) {
    RowValues values[kRowsAtOnce];
#pragma unroll
    for (int r = 0; r < kRowsAtOnce; ++r) {
      const int64_t t = first + r * int64_t(kSolverThreads);
      if (t < rows) values[r] = read(t);
    }
#pragma unroll
    for (int r = 0; r < kRowsAtOnce; ++r) {
      const int64_t t = first + r * int64_t(kSolverThreads);
      if (t < rows) use(t, values[r]);
    }
  }
}

struct FourRowPasses {
  __device__ static void gain(const SolverProblem& p, const PairState& state, double m,
                              double diagonal_i, const PairRows& Ki, Candidate& gain, double& low) {
    in_fours(
        p.n_a + p.n_b,
        [&](int64_t t) {
          RowValues v = read_row(p, state, t, Ki);
          v.diagonal = state.diagonal[t];
          return v;
        },
        [&](int64_t t, const RowValues& v) {
          offer_gain(p, t, v.alpha, v.yg, v.diagonal, v.k_i, m, diagonal_i, gain, low);
        });
  }

  __device__ static void update(const SolverProblem& p, const PairState& state, double s,
                                const PairRows& Ki, const PairRows& Kj, Candidate& up) {
    in_fours(
        p.n_a + p.n_b,
        [&](int64_t t) {
          RowValues v = read_row(p, state, t, Ki);
          v.k_j = Kj.at(t, p.n_a);
          return v;
        },
        [&](int64_t t, const RowValues& v) {
          state.yg[t] = updated_yg(p, t, v.alpha, v.yg, s, v.k_i, v.k_j, up);
        });
  }
};

__global__ void __launch_bounds__(kSolverThreads)
    smo_pairs_batched_kernel(const SolverProblem* problems, SolverOutcome* outcomes) {
  begin_after_prior_kernels();
  solve_pair<FourRowPasses>(problems[blockIdx.x], outcomes + blockIdx.x);
}

}  // namespace

void launch_batched_pairs(Context& ctx, const SolverProblem* problems, SolverOutcome* outcomes,
                          unsigned count) {
  launch(ctx, "smo_pairs_batched_kernel", smo_pairs_batched_kernel, count, kSolverThreads, 0,
         problems, outcomes);
}

}  // namespace smo
}  // namespace cae_cuda
