#include "svm/pair_solver.hpp"

#include <svm.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "svm/smo_solver.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

constexpr uint64_t kSolverBytesPerRow = 128;  // libsvm's alpha, gradient, index arrays, ...

void print_nothing(const char*) {}
void print_to_stderr(const char* text) { std::fputs(text, stderr); }

svm_parameter libsvm_parameters(const SolverSettings& settings) {
  svm_parameter parameters{};
  parameters.svm_type = C_SVC;
  parameters.kernel_type = PRECOMPUTED;
  parameters.degree = 3;
  parameters.cache_size = settings.cache_mb;
  parameters.eps = settings.eps;
  parameters.C = settings.C;
  parameters.nu = 0.5;
  parameters.p = 0.1;
  parameters.shrinking = settings.shrinking ? 1 : 0;
  parameters.probability = 0;
  return parameters;
}

// Owns a trained model; svm_free_and_destroy_model leaves the SV rows alone
// (free_sv == 0): they belong to the workspace.
struct ModelDeleter {
  void operator()(svm_model* model) const { svm_free_and_destroy_model(&model); }
};

std::string pair_name(const ClassPair& pair) {
  return "SVM pair (" + std::to_string(pair.first) + ", " + std::to_string(pair.second) + ")";
}

// (global row, coefficient) entries in any order -> the solution, rows ascending.
PairSolution sorted_solution(const PairRows& rows, std::vector<std::pair<int64_t, float>> entries,
                             float rho) {
  std::sort(entries.begin(), entries.end());
  PairSolution solution;
  solution.pair = rows.pair;
  for (const auto& [row, coef] : entries) {
    solution.support.push_back(row);
    solution.coef.push_back(coef);
  }
  solution.rho = rho;
  return solution;
}

PairSolution extract_solution(const svm_model& model, const PairRows& rows) {
  // libsvm orders labels by first appearance, so label[0] is +1 (the first
  // class, whose rows come first); the sign makes sure either way.
  const float sign = model.label[0] == 1 ? 1.0f : -1.0f;
  std::vector<std::pair<int64_t, float>> entries;
  entries.reserve(static_cast<size_t>(model.l));
  for (int k = 0; k < model.l; ++k) {
    const int64_t index = model.sv_indices[k] - 1;  // 1-based into the problem
    entries.emplace_back(rows.global_row(index), sign * static_cast<float>(model.sv_coef[0][k]));
  }
  return sorted_solution(rows, std::move(entries), sign * static_cast<float>(model.rho[0]));
}

PairSolution solve_with_libsvm(const PairRows& rows, PairWorkspace& workspace,
                               const SolverSettings& settings) {
  const std::string what = pair_name(rows.pair);
  const int64_t l = rows.size();
  workspace.convert_to_nodes(l);
  std::vector<svm_node*> node_rows(static_cast<size_t>(l));
  std::vector<double> targets(static_cast<size_t>(l));
  for (int64_t r = 0; r < l; ++r) {
    node_rows[static_cast<size_t>(r)] = workspace.nodes() + r * (l + 2);
    targets[static_cast<size_t>(r)] = r < rows.count(0) ? 1.0 : -1.0;
  }
  const svm_problem problem{static_cast<int>(l), targets.data(), node_rows.data()};

  const svm_parameter parameters = libsvm_parameters(settings);
  if (const char* error = svm_check_parameter(&problem, &parameters)) {
    throw SvmError(what + ": libsvm rejects the parameters: " + error);
  }
  std::unique_ptr<svm_model, ModelDeleter> model(svm_train(&problem, &parameters));
  if (!model || model->nr_class != 2 || !model->sv_indices) {
    throw SvmError(what + ": libsvm training failed");
  }
  return extract_solution(*model, rows);
}

}  // namespace

int64_t PairRows::global_row(int64_t index) const {
  const int side = index < count(0) ? 0 : 1;
  return (*rows[side])[static_cast<size_t>(side == 0 ? index : index - count(0))];
}

uint64_t pair_solver_bytes(int64_t size, const SolverSettings& settings) {
  const uint64_t rows = static_cast<uint64_t>(size);
  if (settings.solver == SolverKind::Smo) return rows * kSmoBytesPerRow;
  return static_cast<uint64_t>(settings.cache_mb * (1 << 20)) + rows * kSolverBytesPerRow;
}

namespace {

template <class Value>
void transpose(const Value* in, int64_t rows, int64_t cols, Value* out) {
  // 64 x 64 tiles: one tile's source and destination rows stay in cache.
  constexpr int64_t kTile = 64;
  for (int64_t r0 = 0; r0 < rows; r0 += kTile) {
    const int64_t r1 = std::min(rows, r0 + kTile);
    for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
      const int64_t c1 = std::min(cols, c0 + kTile);
      for (int64_t r = r0; r < r1; ++r) {
        for (int64_t c = c0; c < c1; ++c) out[c * rows + r] = in[r * cols + c];
      }
    }
  }
}

template <class Value>
PairKernelOf<Value> shared_kernel(const PairRows& rows, const Value* off_diagonal,
                                  const Value* const diagonal[2]) {
  PairKernelOf<Value> kernel;
  kernel.first_rows = rows.count(0);
  kernel.second_rows = rows.count(1);
  kernel.block[0][0] = diagonal[0];
  kernel.block[0][1] = off_diagonal;
  kernel.block[1][0] = off_diagonal + kernel.first_rows * kernel.second_rows;
  kernel.block[1][1] = diagonal[1];
  kernel.stride[0][0] = kernel.stride[1][0] = kernel.first_rows;
  kernel.stride[0][1] = kernel.stride[1][1] = kernel.second_rows;
  return kernel;
}

void check_pair_fits(const PairRows& rows, const PairWorkspace& workspace,
                     const void* const diagonal[2]) {
  if (rows.size() > workspace.capacity_rows()) {
    throw SvmError(pair_name(rows.pair) + " of " + std::to_string(rows.size()) +
                   " rows does not fit its workspace");
  }
  if (!diagonal[0] || !diagonal[1]) {
    throw SvmError(pair_name(rows.pair) + ": SMO needs the classes' diagonal kernel blocks");
  }
}

}  // namespace

void transpose_block(const float* in, int64_t rows, int64_t cols, float* out) {
  transpose(in, rows, cols, out);
}
void transpose_block(const uint16_t* in, int64_t rows, int64_t cols, uint16_t* out) {
  transpose(in, rows, cols, out);
}

PairKernel shared_pair_kernel(const PairRows& rows, const float* off_diagonal,
                              const float* const diagonal[2]) {
  return shared_kernel(rows, off_diagonal, diagonal);
}
PairKernelUnorm16 shared_pair_kernel(const PairRows& rows, const uint16_t* off_diagonal,
                                     const uint16_t* const diagonal[2]) {
  return shared_kernel(rows, off_diagonal, diagonal);
}

PairSolution solve_pair(const PairRows& rows, PairWorkspace& workspace,
                        const SolverSettings& settings, const PairDiagonals& diagonal) {
  if (workspace.solver() != settings.solver) {
    throw SvmError(pair_name(rows.pair) + ": the workspace was laid out for another solver");
  }
  if (settings.solver == SolverKind::Libsvm) return solve_with_libsvm(rows, workspace, settings);
  return with_smo_pair_kernel(rows, workspace, diagonal, settings.kernel_values,
                              [&](const auto& kernel) {
                                return solve_pair_smo(rows, kernel, settings).solution;
                              });
}

PairKernel smo_pair_kernel(const PairRows& rows, PairWorkspace& workspace,
                           const PairDiagonals& diagonal) {
  const void* const blocks[2] = {diagonal.float32[0], diagonal.float32[1]};
  check_pair_fits(rows, workspace, blocks);
  float* off_diagonal = workspace.kernel(rows.size());
  transpose_block(off_diagonal, rows.count(0), rows.count(1),
                  off_diagonal + rows.count(0) * rows.count(1));
  return shared_pair_kernel(rows, off_diagonal, diagonal.float32);
}

PairKernelUnorm16 smo_pair_kernel_unorm16(const PairRows& rows, PairWorkspace& workspace,
                                          const PairDiagonals& diagonal) {
  const void* const blocks[2] = {diagonal.unorm16[0], diagonal.unorm16[1]};
  check_pair_fits(rows, workspace, blocks);
  const size_t entries = static_cast<size_t>(rows.count(0) * rows.count(1));
  uint16_t* off_diagonal = convert_to_unorm16(workspace.kernel(rows.size()), entries);
  transpose_block(off_diagonal, rows.count(0), rows.count(1), off_diagonal + entries);
  return shared_pair_kernel(rows, off_diagonal, diagonal.unorm16);
}

SmoPairSolution solve_pair_smo(const PairRows& rows, const float* kernel,
                               const SolverSettings& settings) {
  return solve_pair_smo(rows, PairKernel::dense(kernel, rows.size(), rows.count(0)), settings);
}

namespace {

template <class Value>
SmoPairSolution solve_pair_smo_of(const PairRows& rows, const PairKernelOf<Value>& kernel,
                                  const SolverSettings& settings) {
  if (kernel.first_rows != rows.count(0) || kernel.second_rows != rows.count(1)) {
    throw SvmError(pair_name(rows.pair) + ": the kernel's blocks do not match the pair's rows");
  }
  return pair_solution_of(rows,
                          solve_smo(kernel, {settings.C, settings.eps, settings.shrinking, 0}));
}

}  // namespace

SmoPairSolution solve_pair_smo(const PairRows& rows, const PairKernel& kernel,
                               const SolverSettings& settings) {
  return solve_pair_smo_of(rows, kernel, settings);
}
SmoPairSolution solve_pair_smo(const PairRows& rows, const PairKernelUnorm16& kernel,
                               const SolverSettings& settings) {
  return solve_pair_smo_of(rows, kernel, settings);
}

SmoPairSolution pair_solution_of(const PairRows& rows, const SmoResult& result) {
  const int64_t l = rows.size();
  std::vector<std::pair<int64_t, float>> entries;
  for (int64_t r = 0; r < l; ++r) {
    const double alpha = result.alpha[static_cast<size_t>(r)];
    if (alpha <= 0.0) continue;
    // coef = y alpha: the first class's rows are +1.
    entries.emplace_back(rows.global_row(r),
                         static_cast<float>(r < rows.count(0) ? alpha : -alpha));
  }
  SmoPairSolution out;
  out.solution = sorted_solution(rows, std::move(entries), static_cast<float>(result.rho));
  out.objective = result.objective;
  out.iterations = result.iterations;
  out.converged = result.converged;
  out.solution.converged = result.converged;
  return out;
}

void configure_libsvm_output(bool verbose) {
  svm_set_print_string_function(verbose ? &print_to_stderr : &print_nothing);
}

}  // namespace cae::svm
