#include "svm/pair_solver.hpp"

#include <svm.h>

#include <algorithm>
#include <cstdio>
#include <memory>

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
  std::sort(entries.begin(), entries.end());
  PairSolution solution;
  solution.pair = rows.pair;
  for (const auto& [row, coef] : entries) {
    solution.support.push_back(row);
    solution.coef.push_back(coef);
  }
  solution.rho = sign * static_cast<float>(model.rho[0]);
  return solution;
}

}  // namespace

int64_t PairRows::global_row(int64_t index) const {
  const int side = index < count(0) ? 0 : 1;
  return (*rows[side])[static_cast<size_t>(side == 0 ? index : index - count(0))];
}

uint64_t pair_solver_bytes(int64_t size, double cache_mb) {
  return static_cast<uint64_t>(cache_mb * (1 << 20)) +
         static_cast<uint64_t>(size) * kSolverBytesPerRow;
}

PairSolution solve_pair(const PairRows& rows, PairWorkspace& workspace,
                        const SolverSettings& settings) {
  const std::string what = "SVM pair (" + std::to_string(rows.pair.first) + ", " +
                           std::to_string(rows.pair.second) + ")";
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

void configure_libsvm_output(bool verbose) {
  svm_set_print_string_function(verbose ? &print_to_stderr : &print_nothing);
}

}  // namespace cae::svm
