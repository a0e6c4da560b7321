#include "svm_options.hpp"

#include <iostream>

#include "option_checks.hpp"
#include "report/progress.hpp"

namespace cae::cli {

void add_svm_options(po::options_description& options) {
  options.add_options()
      ("C", po::value<double>()->default_value(5.0)->value_name("C"),
       "SVM regularisation (5: chosen on the validation split, docs/PERF.md); not given with "
       "--classifier linear: 0.001 (logistic) or 0.0001 (squared-hinge), chosen likewise "
       "(docs/classifiers.md)")
      ("gamma", po::value<std::string>()->default_value("scale")->value_name("auto|scale|VALUE"),
       "RBF gamma: auto = 1/dim, scale = 1/(dim * variance), or a number")
      ("kernel", po::value<std::string>()->default_value("rbf")->value_name("rbf|linear"), "SVM kernel")
      ("standardize", po::value<bool>()->default_value(true, "true")->implicit_value(true, "true")->value_name("BOOL"),
       "scale every feature to zero mean, unit variance on the training set")
      ("svm-solver", po::value<std::string>()->default_value("smo")->value_name("smo|libsvm"),
       "class-pair solver: smo (ours, on the float32 kernel: 4 bytes per entry) or libsvm (reference, 16 bytes per entry)")
      ("svm-kernel-values", po::value<std::string>()->default_value("auto")->value_name("auto|float32|unorm16"),
       "how the smo solver holds the kernel: float32 as computed, or unorm16 (rbf only: 16-bit fixed point, within 7.7e-6, half the bytes each SMO step reads and half the memory per class pair); auto = unorm16 for --search's candidates with rbf, float32 otherwise")
      ("svm-on", po::value<std::string>()->default_value("auto")->value_name("auto|host|backend"),
       "where smo solves the class pairs: host (the kernels come down, --svm-threads workers solve them) or backend (the kernels stay on the device and the backend solves every pair at once: svm_dual_solve); auto = backend where the backend offers that solver and memory of its own (a GPU), host otherwise")
      ("svm-threads", po::value<int>()->default_value(0)->value_name("N"), "SVM solver worker threads (0 = all cores, at most 1024)")
      ("memory-cap-gb", po::value<double>()->default_value(0)->value_name("GB"),
       "host memory the SVM pairs may hold (0 = smo: the classes' diagonal kernel blocks + (threads + 2) x the largest pair, at most 2 GiB of pairs; libsvm: min(24 GiB, half the RAM))");
}

svm::TrainOptions svm_options_from(const po::variables_map& vm) {
  svm::TrainOptions o;
  o.C = option_in_range(vm, "C", kMinC, kMaxC);
  try {
    o.gamma = svm::GammaPolicy::parse(vm["gamma"].as<std::string>());
    o.kernel = svm::parse_kernel_kind(vm["kernel"].as<std::string>());
    o.solver = svm::parse_solver_kind(vm["svm-solver"].as<std::string>());
    o.kernel_values = svm::parse_kernel_values(vm["svm-kernel-values"].as<std::string>());
  } catch (const std::exception& e) {
    throw UsageError(e.what());
  }
  if (o.kernel_values == svm::KernelValues::Unorm16 && o.kernel != svm::KernelKind::Rbf) {
    throw UsageError("--svm-kernel-values unorm16 needs --kernel rbf (its values lie in [0, 1])");
  }
  if (o.kernel_values != svm::KernelValues::Auto && o.solver != svm::SolverKind::Smo) {
    throw UsageError("--svm-kernel-values applies to --svm-solver smo only");
  }
  try {
    o.solver_place = svm::parse_solver_place(vm["svm-on"].as<std::string>());
  } catch (const std::exception& e) {
    throw UsageError(std::string("--svm-on: ") + e.what());
  }
  if (o.solver_place == svm::SolverPlace::Backend && o.solver != svm::SolverKind::Smo) {
    throw UsageError("--svm-on backend needs --svm-solver smo (the backend's solver is SMO)");
  }
  if (o.solver_place == svm::SolverPlace::Backend && o.kernel_values == svm::KernelValues::Unorm16) {
    throw UsageError("--svm-on backend reads the float32 kernel the backend computed: it does not take --svm-kernel-values unorm16");
  }
  o.standardize = vm["standardize"].as<bool>();
  o.threads = option_in_range(vm, "svm-threads", 0, 1024);
  const double cap_gb = option_in_range(vm, "memory-cap-gb", 0.0, 1e6);
  // A cap too small to hold anything would round to 0, which means "automatic".
  if (cap_gb > 0 && cap_gb < 0.001) throw UsageError("--memory-cap-gb must be 0 (automatic) or at least 0.001");
  o.memory_cap_bytes = uint64_t(cap_gb * 1024.0 * 1024.0 * 1024.0);
  return o;
}

std::shared_ptr<void> attach_svm_progress(svm::TrainOptions& options) {
  auto holder = std::make_shared<std::unique_ptr<ProgressReporter>>();
  options.progress = [holder](int done, int total) {
    if (!*holder) {
      ProgressOptions p;
      p.label = "svm";
      p.unit = "pairs";
      p.out = &std::cout;
      *holder = std::make_unique<ProgressReporter>(total, p);
    }
    (*holder)->update(done);
    if (done == total) (*holder)->finish();
  };
  return holder;
}

}  // namespace cae::cli
