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
// reductions of a step. This kernel takes a thread's rows one after another
// (the option smo-rows=one); svm_dual_batched.cu, the default, takes them
// four at a time, the same steps with more loads in flight;
// svm_dual_kernels.cuh holds what the two share.
#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <vector>

#include "device_memory.hpp"
#include "runtime_launch.cuh"
#include "runtime_ops.hpp"
#include "svm_dual_kernels.cuh"

namespace cae_cuda {

namespace {

using namespace smo;

// A thread's rows one after another.
struct OneRowPasses {
  __device__ static void gain(const SolverProblem& p, const PairState& state, double m,
                              double diagonal_i, const PairRows& Ki, Candidate& gain, double& low) {
    for (int64_t t = threadIdx.x; t < p.n_a + p.n_b; t += kSolverThreads) {
      offer_gain(p, t, state.alpha[t], state.yg[t], state.diagonal[t], Ki.at(t, p.n_a), m,
                 diagonal_i, gain, low);
    }
  }

  __device__ static void update(const SolverProblem& p, const PairState& state, double s,
                                const PairRows& Ki, const PairRows& Kj, Candidate& up) {
    for (int64_t t = threadIdx.x; t < p.n_a + p.n_b; t += kSolverThreads) {
      state.yg[t] =
          updated_yg(p, t, state.alpha[t], state.yg[t], s, Ki.at(t, p.n_a), Kj.at(t, p.n_a), up);
    }
  }
};

__global__ void __launch_bounds__(kSolverThreads)
    smo_pairs_kernel(const SolverProblem* problems, SolverOutcome* outcomes) {
  begin_after_prior_kernels();
  solve_pair<OneRowPasses>(problems[blockIdx.x], outcomes + blockIdx.x);
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
  if (ctx.tuning.smo_rows_at_once == 4) {
    launch_batched_pairs(ctx, problems, outcomes, static_cast<unsigned>(count));
  } else {
    launch(ctx, "smo_pairs_kernel", smo_pairs_kernel, static_cast<unsigned>(count), kSolverThreads,
           0, static_cast<const SolverProblem*>(problems), outcomes);
  }
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
