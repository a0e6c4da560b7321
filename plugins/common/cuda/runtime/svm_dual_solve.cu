// The kernel SVM's dual problems (svm_dual_solve), one thread block per class
// pair, all pairs of a call in one launch: a pair's SMO steps are a chain
// (each step's choice needs the previous step's gradient), so the parallelism
// is across the pair's rows inside a step and across the pairs side by side.
//
// One step of a block, as the host's solver (host/svm/smo_solver.cpp) takes
// it, in y G space (y_t G_t, kept in double):
//   1. i: the largest -y G among the rows that may move up (found while the
//      previous step updated the gradients);
//   2. j: over the rows that may move down, the largest second-order gain
//      b^2 / a with b = m - (-y_t G_t) > 0 and a = K_ii + K_tt - 2 K_it,
//      read from K's row i; M, the smallest -y G among them, tells whether
//      the gap m - M is within eps;
//   3. one thread moves a_i += y_i s, a_j -= y_j s (s = b / a, cut at the box);
//   4. every row: y_t G_t += s (K_ti - K_tj), from K's rows i and j, and the
//      next step's i from the new values.
// Every row belongs to one thread for the whole solve (t = thread + k x
// block), so the per-row state needs no synchronisation beyond the two block
// reductions of a step.
#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <vector>

#include "device_memory.hpp"
#include "runtime_launch.cuh"
#include "runtime_ops.hpp"

namespace cae_cuda {

namespace {

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
  __device__ float at(int64_t u, int64_t n_a) const {
    return u < n_a ? first[u] : second[u - n_a];
  }
};

__device__ PairRows row_of(const SolverProblem& p, int64_t t) {
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

__device__ Candidate better(Candidate a, Candidate b) {
  if (b.value > a.value || (b.value == a.value && b.index > a.index)) return b;
  return a;
}

__device__ Candidate warp_best(Candidate c) {
  for (int offset = 16; offset > 0; offset /= 2) {
    Candidate other;
    other.value = __shfl_down_sync(0xffffffffu, c.value, offset);
    other.index = __shfl_down_sync(0xffffffffu, c.index, offset);
    c = better(c, other);
  }
  return c;
}

// The block's best candidate and smallest `low`, on every thread.
__device__ void block_best(Candidate& c, double& low, Candidate* shared_best, double* shared_low) {
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

__device__ bool may_move_up(double alpha, bool positive, double C) {
  return positive ? alpha < C : alpha > 0.0;
}
__device__ bool may_move_down(double alpha, bool positive, double C) {
  return positive ? alpha > 0.0 : alpha < C;
}

__global__ void __launch_bounds__(kSolverThreads)
    smo_pairs_kernel(const SolverProblem* problems, SolverOutcome* outcomes) {
  begin_after_prior_kernels();
  const SolverProblem p = problems[blockIdx.x];
  const int64_t l = p.n_a + p.n_b;
  double* alpha = p.state;
  double* yg = p.state + l;
  double* diagonal = p.state + 2 * l;
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
    for (int64_t t = threadIdx.x; t < l; t += kSolverThreads) {
      if (!may_move_down(alpha[t], t < p.n_a, p.C)) continue;
      const double value = -yg[t];
      low = fmin(low, value);
      const double b = m - value;
      if (b > 0.0) {
        double a = diagonal[i] + diagonal[t] - 2.0 * double(Ki.at(t, p.n_a));
        if (a <= 0.0) a = cae_plugin::kSvmDualTau;
        gain = better(gain, {b * b / a, t});
      }
    }
    block_best(gain, low, shared_best, shared_low);
    if (m - low <= p.eps || gain.index < 0) {
      converged = true;
      break;
    }
    if (iterations == p.max_iterations) break;
    const int64_t j = gain.index;
    if (threadIdx.x == 0) {
      const cae_plugin::SvmDualStep moved = cae_plugin::svm_dual_step(
          alpha[i], i < p.n_a, alpha[j], j < p.n_a, p.C, m + yg[j],
          diagonal[i] + diagonal[j] - 2.0 * double(Ki.at(j, p.n_a)));
      alpha[i] = moved.alpha_i;
      alpha[j] = moved.alpha_j;
      step = moved.s;
    }
    __syncthreads();
    const double s = step;
    const PairRows Kj = row_of(p, j);
    up = {-DBL_MAX, -1};
    for (int64_t t = threadIdx.x; t < l; t += kSolverThreads) {
      yg[t] += s * (double(Ki.at(t, p.n_a)) - double(Kj.at(t, p.n_a)));
      if (may_move_up(alpha[t], t < p.n_a, p.C)) up = better(up, {-yg[t], t});
    }
    ++iterations;
    block_best(up, unused, shared_best, shared_low);
  }

  for (int64_t t = threadIdx.x; t < l; t += kSolverThreads) {
    p.alpha[t] = static_cast<float>(alpha[t]);
    p.gradient[t] = static_cast<float>(t < p.n_a ? yg[t] : -yg[t]);
  }
  if (threadIdx.x == 0) outcomes[blockIdx.x] = {iterations, converged ? 1 : 0};
}

constexpr size_t round_up(size_t value, size_t step) { return (value + step - 1) / step * step; }

constexpr unsigned kTransposeTile = 32;
constexpr unsigned kTransposeRows = 8;  // threads per tile column: each moves 4 values

// out [cols, rows] = in [rows, cols] transposed, through a shared tile so that
// both the reads and the writes are whole rows (the padding column keeps the
// tile's column reads off one bank).
__global__ void __launch_bounds__(kTransposeTile * kTransposeRows)
    transpose_kernel(const float* in, float* out, int64_t rows, int64_t cols) {
  begin_after_prior_kernels();
  __shared__ float tile[kTransposeTile][kTransposeTile + 1];
  const int64_t col0 = int64_t(blockIdx.x) * kTransposeTile;
  for (int64_t row0 = int64_t(blockIdx.y) * kTransposeTile; row0 < rows;
       row0 += int64_t(gridDim.y) * kTransposeTile) {
    for (unsigned j = threadIdx.y; j < kTransposeTile; j += kTransposeRows) {
      const int64_t r = row0 + j, c = col0 + threadIdx.x;
      if (r < rows && c < cols) tile[j][threadIdx.x] = in[r * cols + c];
    }
    __syncthreads();
    for (unsigned j = threadIdx.y; j < kTransposeTile; j += kTransposeRows) {
      const int64_t c = col0 + j, r = row0 + threadIdx.x;
      if (r < rows && c < cols) out[c * rows + r] = tile[threadIdx.x][j];
    }
    __syncthreads();  // the tile is refilled for the next rows
  }
}

}  // namespace

void svm_dual_solve(Context& ctx, const cae_plugin::SvmDualWork* tasks, int32_t count) {
  // Per problem: its state (3 doubles a row), then K(b, a) where the caller
  // gave only K(a, b) (ABI 1.9); then the descriptors and outcomes.
  std::vector<size_t> state_at(static_cast<size_t>(count));
  std::vector<size_t> transpose_at(static_cast<size_t>(count));
  size_t doubles = 0, transposed_floats = 0;
  for (int32_t k = 0; k < count; ++k) {
    state_at[static_cast<size_t>(k)] = doubles;
    doubles += static_cast<size_t>(3 * (tasks[k].n_a + tasks[k].n_b));
    transpose_at[static_cast<size_t>(k)] = transposed_floats;
    // Each transpose takes a multiple of 32 floats, so the descriptors after
    // them stay aligned for their pointers and doubles (n_a n_b may be odd).
    if (tasks[k].ba == nullptr) {
      transposed_floats += round_up(static_cast<size_t>(tasks[k].n_a * tasks[k].n_b), 32);
    }
  }
  const size_t problems_bytes = sizeof(SolverProblem) * static_cast<size_t>(count);
  const size_t outcomes_bytes = sizeof(SolverOutcome) * static_cast<size_t>(count);
  DeviceMemory memory(doubles * sizeof(double) + transposed_floats * sizeof(float) +
                          problems_bytes + outcomes_bytes,
                      ctx.memory, "svm_dual_solve's state");
  double* states = memory.as<double>();
  float* transposed = reinterpret_cast<float*>(states + doubles);
  auto* problems = reinterpret_cast<SolverProblem*>(transposed + transposed_floats);
  auto* outcomes = reinterpret_cast<SolverOutcome*>(reinterpret_cast<char*>(problems) + problems_bytes);
  std::vector<SolverProblem> host(static_cast<size_t>(count));
  for (int32_t k = 0; k < count; ++k) {
    const cae_plugin::SvmDualWork& t = tasks[k];
    const float* ba = t.ba;
    if (ba == nullptr) {
      float* out = transposed + transpose_at[static_cast<size_t>(k)];
      const unsigned column_tiles = static_cast<unsigned>((t.n_b + kTransposeTile - 1) / kTransposeTile);
      const unsigned row_tiles = static_cast<unsigned>(
          std::min<int64_t>((t.n_a + kTransposeTile - 1) / kTransposeTile, 65535));
      launch(ctx, "transpose_kernel", transpose_kernel, dim3(column_tiles, row_tiles),
             dim3(kTransposeTile, kTransposeRows), 0, t.ab, out, t.n_a, t.n_b);
      ba = out;
    }
    host[static_cast<size_t>(k)] = {t.aa,  t.ab,  ba,    t.bb, t.alpha, t.gradient,
                                    states + state_at[static_cast<size_t>(k)],
                                    t.n_a, t.n_b, t.C,   t.eps, t.max_iterations};
  }
  CAE_CUDA_CHECK(cudaMemcpyAsync(problems, host.data(), problems_bytes, cudaMemcpyHostToDevice,
                                 ctx.stream));
  launch(ctx, "smo_pairs_kernel", smo_pairs_kernel, static_cast<unsigned>(count), kSolverThreads, 0,
         static_cast<const SolverProblem*>(problems), outcomes);
  std::vector<SolverOutcome> results(static_cast<size_t>(count));
  CAE_CUDA_CHECK(cudaMemcpyAsync(results.data(), outcomes, outcomes_bytes, cudaMemcpyDeviceToHost,
                                 ctx.stream));
  CAE_CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
  for (int32_t k = 0; k < count; ++k) {
    tasks[k].outcome->iterations = results[static_cast<size_t>(k)].iterations;
    tasks[k].outcome->converged = static_cast<int32_t>(results[static_cast<size_t>(k)].converged);
  }
}

}  // namespace cae_cuda
