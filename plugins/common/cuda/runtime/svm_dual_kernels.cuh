// What the two variants of the SVM dual solver's kernel share (svm_dual_solve.cu
// and svm_dual_batched.cu): a problem as the kernel reads it, its outcome, a
// kernel row of the pair, the block's reductions and the box tests. Both
// variants take the same steps: a step's choices are maxima and minima with a
// fixed rule for ties, which no order of the rows changes, and every row's
// update is its own.
#pragma once

#include <cuda_runtime.h>

#include <cfloat>
#include <cstdint>

#include "runtime_launch.cuh"
#include "svm_dual.hpp"

namespace cae_cuda {
namespace smo {

constexpr unsigned kSolverThreads = 512;
constexpr unsigned kWarps = kSolverThreads / 32;

struct SolverProblem {
  const float* aa;
  const float* ab;
  const float* ba;
  const float* bb;
  float* alpha;     // [l] in and out
  float* gradient;  // [l] in and out
  double* state;    // [3 l]: alpha, y G, K_tt in double
  int64_t n_a;
  int64_t n_b;
  double C;
  double eps;
  int64_t max_iterations;
};

// Two full words, no padding: the copy back reads only bytes the kernel wrote.
struct SolverOutcome {
  int64_t iterations;
  int64_t converged;
};

// K(t, u) from the four blocks (rows of a, then of b).
struct PairRows {
  const float* first;   // against a's rows
  const float* second;  // against b's rows
  __device__ float at(int64_t u, int64_t n_a) const { return u < n_a ? first[u] : second[u - n_a]; }
};

inline __device__ PairRows row_of(const SolverProblem& p, int64_t t) {
  if (t < p.n_a) return {p.aa + t * p.n_a, p.ab + t * p.n_b};
  const int64_t r = t - p.n_a;
  return {p.ba + r * p.n_a, p.bb + r * p.n_b};
}

// (value, index): the larger value wins, a tie goes to the larger index (the
// host's scans keep the last of equal values).
struct Candidate {
  double value;
  int64_t index;
};

inline __device__ Candidate better(Candidate a, Candidate b) {
  if (b.value > a.value || (b.value == a.value && b.index > a.index)) return b;
  return a;
}

inline __device__ Candidate warp_best(Candidate c) {
  for (int offset = 16; offset > 0; offset /= 2) {
    Candidate other;
    other.value = __shfl_down_sync(0xffffffffu, c.value, offset);
    other.index = __shfl_down_sync(0xffffffffu, c.index, offset);
    c = better(c, other);
  }
  return c;
}

// The block's best candidate and smallest `low`, on every thread.
inline __device__ void block_best(Candidate& c, double& low, Candidate* shared_best,
                                  double* shared_low) {
  c = warp_best(c);
  for (int offset = 16; offset > 0; offset /= 2) {
    low = fmin(low, __shfl_down_sync(0xffffffffu, low, offset));
  }
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) {
    shared_best[warp] = c;
    shared_low[warp] = low;
  }
  __syncthreads();
  if (warp == 0) {
    c = lane < kWarps ? shared_best[lane] : Candidate{-DBL_MAX, -1};
    low = lane < kWarps ? shared_low[lane] : DBL_MAX;
    c = warp_best(c);
    for (int offset = 16; offset > 0; offset /= 2) {
      low = fmin(low, __shfl_down_sync(0xffffffffu, low, offset));
    }
    if (lane == 0) {
      shared_best[0] = c;
      shared_low[0] = low;
    }
  }
  __syncthreads();
  c = shared_best[0];
  low = shared_low[0];
  __syncthreads();  // the slots are reused by the next reduction
}

inline __device__ bool may_move_up(double alpha, bool positive, double C) {
  return positive ? alpha < C : alpha > 0.0;
}
inline __device__ bool may_move_down(double alpha, bool positive, double C) {
  return positive ? alpha > 0.0 : alpha < C;
}

// Row t's part of a step's first pass: if it may move down, its -y G
// towards `low` and its second-order gain towards `gain`. Every variant's
// pass calls this, so their arithmetic is one.
inline __device__ void offer_gain(const SolverProblem& p, int64_t t, double alpha_t, double yg_t,
                                  double diagonal_t, float k_it, double m, double diagonal_i,
                                  Candidate& gain, double& low) {
  if (!may_move_down(alpha_t, t < p.n_a, p.C)) return;
  const double value = -yg_t;
  low = fmin(low, value);
  const double b = m - value;
  if (b > 0.0) {
    double a = diagonal_i + diagonal_t - 2.0 * double(k_it);
    if (a <= 0.0) a = cae_plugin::kSvmDualTau;
    gain = better(gain, {b * b / a, t});
  }
}

// Row t's part of the second pass: its y G after the step s, offered to `up`
// if the row may move up.
inline __device__ double updated_yg(const SolverProblem& p, int64_t t, double alpha_t, double yg_t,
                                    double s, float k_it, float k_jt, Candidate& up) {
  yg_t += s * (double(k_it) - double(k_jt));
  if (may_move_up(alpha_t, t < p.n_a, p.C)) up = better(up, {-yg_t, t});
  return yg_t;
}

// A pair's per-row state in double, in its problem's scratch.
struct PairState {
  double* alpha;
  double* yg;        // y_t G_t
  double* diagonal;  // K_tt
};

// One block's whole solve of problem p, as svm_dual_solve.cu's header says;
// `Passes` holds the step's two passes over the rows, a variant's own:
//   gain(p, state, m, diagonal_i, Ki, gain, low): over the rows that may
//     move down, the best (b^2 / a, t) into `gain` and the smallest -y G into
//     `low` (this thread's rows; the caller reduces);
//   update(p, state, s, Ki, Kj, up): every row's y G += s (K_ti - K_tj), and
//     the best (-y G, t) among the rows that may move up into `up`.
template <class Passes>
__device__ void solve_pair(const SolverProblem& p, SolverOutcome* outcome) {
  const int64_t l = p.n_a + p.n_b;
  const PairState state{p.state, p.state + l, p.state + 2 * l};
  double* alpha = state.alpha;
  double* yg = state.yg;
  double* diagonal = state.diagonal;
  __shared__ Candidate shared_best[kWarps];
  __shared__ double shared_low[kWarps];
  __shared__ double step;  // s of the current step

  // The start, and the first i.
  Candidate up{-DBL_MAX, -1};
  for (int64_t t = threadIdx.x; t < l; t += kSolverThreads) {
    const bool positive = t < p.n_a;
    alpha[t] = p.alpha[t];
    yg[t] = positive ? double(p.gradient[t]) : -double(p.gradient[t]);
    diagonal[t] = row_of(p, t).at(t, p.n_a);
    if (may_move_up(alpha[t], positive, p.C)) up = better(up, {-yg[t], t});
  }
  double unused = DBL_MAX;
  block_best(up, unused, shared_best, shared_low);

  int64_t iterations = 0;
  bool converged = false;
  for (;;) {
    if (up.index < 0) {  // nothing may move up: every KKT condition holds
      converged = true;
      break;
    }
    const int64_t i = up.index;
    const double m = up.value;
    const PairRows Ki = row_of(p, i);
    Candidate gain{-DBL_MAX, -1};  // value: b^2 / a (the host minimises -b^2 / a)
    double low = DBL_MAX;          // M: the smallest -y G that may move down
    Passes::gain(p, state, m, diagonal[i], Ki, gain, low);
    block_best(gain, low, shared_best, shared_low);
    if (m - low <= p.eps || gain.index < 0) {
      converged = true;
      break;
    }
    if (iterations == p.max_iterations) break;
    const int64_t j = gain.index;
    if (threadIdx.x == 0) {
      const cae_plugin::SvmDualStep moved =
          cae_plugin::svm_dual_step(alpha[i], i < p.n_a, alpha[j], j < p.n_a, p.C, m + yg[j],
                                    diagonal[i] + diagonal[j] - 2.0 * double(Ki.at(j, p.n_a)));
      alpha[i] = moved.alpha_i;
      alpha[j] = moved.alpha_j;
      step = moved.s;
    }
    __syncthreads();
    up = {-DBL_MAX, -1};
    Passes::update(p, state, step, Ki, row_of(p, j), up);
    ++iterations;
    block_best(up, unused, shared_best, shared_low);
  }

  for (int64_t t = threadIdx.x; t < l; t += kSolverThreads) {
    p.alpha[t] = static_cast<float>(alpha[t]);
    p.gradient[t] = static_cast<float>(t < p.n_a ? yg[t] : -yg[t]);
  }
  if (threadIdx.x == 0) *outcome = {iterations, converged ? 1 : 0};
}

// The batched kernel (svm_dual_batched.cu), launched like the one-row-at-a-time
// kernel of svm_dual_solve.cu: one block of kSolverThreads per problem.
void launch_batched_pairs(Context& ctx, const SolverProblem* problems, SolverOutcome* outcomes,
                          unsigned count);

}  // namespace smo
}  // namespace cae_cuda
