#include "classifier_options.hpp"

#include <map>
#include <string>

#include "ignored_options.hpp"
#include "io/memory_budget.hpp"
#include "option_checks.hpp"
#include "svm/svm_error.hpp"

namespace cae::cli {

void add_classifier_options(po::options_description& options) {
  options.add_options()(
      "classifier", po::value<std::string>()->default_value("svm")->value_name("svm|linear"),
      "svm: the one-vs-one kernel SVM (memory grows as rows^2); linear: one weight vector "
      "per class on the same features, trained for --linear-loss (memory grows as rows x "
      "dim; --C is its regularisation, --search chooses it among --search-C)")(
      "linear-loss",
      po::value<std::string>()->default_value("logistic")->value_name("logistic|squared-hinge"),
      "--classifier linear: logistic: multinomial logistic regression; squared-hinge: one "
      "L2-SVM per class against the rest (squared hinge, as the single-layer feature "
      "learning pipelines of the literature classify)")(
      "linear-iterations", po::value<int>()->default_value(200)->value_name("N"),
      "--classifier linear: at most N L-BFGS iterations (it stops earlier once the gradient "
      "is 1e-3 of its value at zero weights)")(
      "linear-on", po::value<std::string>()->default_value("auto")->value_name("auto|host|backend"),
      "--classifier linear: where its passes over the rows run: host (OpenBLAS, --svm-threads), "
      "backend (the features uploaded once, two GEMMs per group of rows through the backend's "
      "kernel_matrix on every device of --devices), or auto: the backend in use (always in "
      "pipeline; in svm when ranks share the work) when it is a device with memory of its own "
      "and the features fit in it, else the host");
}

ClassifierKind classifier_from(const po::variables_map& vm) {
  const std::string name = vm["classifier"].as<std::string>();
  // The other classifier's options would be ignored: refused (ignored_options.hpp).
  if (name == "svm") {
    refuse_given_options(vm, {"linear-iterations", "linear-on", "linear-loss"},
                         "applies to --classifier linear only");
    return ClassifierKind::Svm;
  }
  if (name == "linear") {
    refuse_given_options(vm, {"gamma", "kernel", "svm-solver", "svm-kernel-values", "svm-on", "search-gamma"},
                         "applies to the kernel SVM only, not to --classifier linear");
    return ClassifierKind::Linear;
  }
  throw UsageError("--classifier must be svm or linear, got '" + name + "'");
}

const char* classifier_name(ClassifierKind kind) {
  return kind == ClassifierKind::Linear ? "linear" : "svm";
}

LinearPlace linear_place(const po::variables_map& vm) {
  const std::string where = vm["linear-on"].as<std::string>();
  if (where == "host") return LinearPlace::Host;
  if (where == "backend") return LinearPlace::Backend;
  if (where == "auto") return LinearPlace::Auto;
  throw UsageError("--linear-on must be auto, host or backend, got '" + where + "'");
}

bool linear_on_backend(const po::variables_map& vm) {
  return linear_place(vm) == LinearPlace::Backend;
}

svm::LinearOptions linear_options_from(const po::variables_map& vm, const svm::TrainOptions& svm) {
  svm::LinearOptions options;
  options.C = svm.C;
  options.standardize = svm.standardize;
  options.threads = svm.threads;
  options.max_iterations = option_in_range(vm, "linear-iterations", 1, 100000);
  const std::string loss = vm["linear-loss"].as<std::string>();
  try {
    options.loss = svm::linear_loss_from_name(loss);
  } catch (const svm::SvmError&) {
    throw UsageError("--linear-loss must be logistic or squared-hinge, got '" + loss + "'");
  }
  // The kernel SVM's default C is four decades too weak a penalty for the
  // linear classifier's objective (svm_selection.cpp, --search-C auto).
  if (vm["C"].defaulted()) options.C = options.loss == svm::LinearLoss::SquaredHinge ? 1e-4 : 1e-3;
  return options;
}

std::vector<int64_t> class_rows_after_split(const std::vector<int32_t>& labels, int64_t held_out) {
  std::map<int32_t, int64_t> counts;
  for (const int32_t label : labels) ++counts[label];
  const int64_t total = static_cast<int64_t>(labels.size());
  std::vector<int64_t> rows;
  for (const auto& [label, n] : counts) rows.push_back(total ? n - n * held_out / total : 0);
  return rows;
}

void require_kernel_svm_fits(const std::vector<int64_t>& class_rows, int64_t dim,
                             const svm::TrainOptions& options, uint64_t bytes_to_come) {
  const uint64_t need = svm::kernel_svm_host_bytes(class_rows, dim, options) + bytes_to_come;
  const uint64_t available = available_memory_bytes();
  if (need <= available) return;
  int64_t rows = 0;
  for (const int64_t n : class_rows) rows += n;
  throw UsageError("the kernel SVM on " + std::to_string(rows) + " rows of " +
                   std::to_string(class_rows.size()) + " classes needs about " + gib_text(need) +
                   " of host memory (its class-pair kernels grow as rows^2), " +
                   gib_text(available) +
                   " is available: use --classifier linear (memory grows as rows x dim)");
}

}  // namespace cae::cli
