// `cae svm`: one-vs-one libsvm on extracted features, kernels on the backend.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <future>
#include <iostream>
#include <map>
#include <optional>

#include "backend_session.hpp"
#include "classifier_options.hpp"
#include "commands.hpp"
#include "distributed_options.hpp"
#include "first_use_certification.hpp"
#include "io/npy.hpp"
#include "linear_selection.hpp"
#include "option_checks.hpp"
#include "path_options.hpp"
#include "provenance.hpp"
#include "report/stopwatch.hpp"
#include "report/timing_table.hpp"
#include "svm/libsvm_export.hpp"
#include "svm/linear_model.hpp"
#include "svm/model_file.hpp"
#include "svm/predictor.hpp"
#include "svm/solver_kind.hpp"
#include "svm_options.hpp"
#include "svm_selection.hpp"

namespace cae::cli {
namespace {

// The labels are classes of the data the features describe: their count
// comes from features.json's data record (provenance.hpp).
svm::FeatureSet read_split(const std::string& dir, const std::string& split, int64_t classes) {
  FloatMatrix features = read_npy_matrix(dir + "/" + split + "_features.npy");
  std::vector<int32_t> labels = read_npy_labels(dir + "/" + split + "_labels.npy", classes);
  if (labels.size() != features.rows) {
    throw std::runtime_error(dir + "/" + split + "_labels.npy has " + std::to_string(labels.size()) +
                             " labels for " + std::to_string(features.rows) + " feature rows");
  }
  svm::FeatureSet set;
  set.rows = int64_t(features.rows);
  set.dim = int64_t(features.cols);
  set.values = std::move(features.values);
  set.labels = std::move(labels);
  return set;
}

// What train_ovo and predict would find out only after loading the backend
// (or after training), said at load with the file's name.
void check_splits(const svm::FeatureSet& train, const std::optional<svm::FeatureSet>& test,
                  const ValidationChoice& validation, const std::string& dir) {
  check_svm_training_labels(train.labels, validation, dir + "/train_labels.npy");
  if (test && test->rows > 0 && test->dim != train.dim) {
    throw std::runtime_error(dir + "/test_features.npy has " + std::to_string(test->dim) +
                             " columns, " + dir + "/train_features.npy " +
                             std::to_string(train.dim));
  }
}

void print_test_accuracy(const std::vector<int32_t>& labels, const svm::FeatureSet& test) {
  int64_t correct = 0;
  for (int64_t i = 0; i < test.rows; ++i) correct += labels[size_t(i)] == test.labels[size_t(i)];
  std::printf("test accuracy: %.2f%% (%lld/%lld)\n", 100.0 * double(correct) / double(test.rows),
              static_cast<long long>(correct), static_cast<long long>(test.rows));
}

// The stage table's last rows, then the table: what the run still holds
// (the features, the model, the backend's contexts) freed first, since left
// to the process's exit it would take time no row shows.
void print_stage_table(StageTimings& timings, const std::function<void()>& release) {
  Stopwatch releasing;
  release();
  timings.emplace_back("release memory", releasing.seconds());
  account_the_rest(timings);
  std::cout << "\n" << format_timing_table(timings);
}

// --classifier linear: no kernels (and in one process no backend); the model
// file records where its features came from and how C was chosen. Across
// ranks every rank trains on its share of the rows' groups and rank 0 writes
// and predicts. Adds its stages to `timings`; false on a rank other than 0,
// which writes nothing.
bool run_linear(const svm::FeatureSet& train, const std::optional<svm::FeatureSet>& test,
                const svm::LinearOptions& options, const ValidationChoice& validation,
                const std::string& dir, const std::string& out, const svm::FeatureOrigin& features,
                int32_t rank, StageTimings& timings) {
  Stopwatch stage;
  SelectedLinear selected = select_and_train_linear(train, options, validation, std::cout);
  timings.emplace_back("linear train", stage.lap());
  if (rank != 0) {
    std::cout << "rank " << rank << " done; rank 0 writes the model\n";
    return false;
  }
  selected.model.origin = features;
  std::map<std::string, std::string> provenance{
      {"features", dir},
      {"chosen_by", selected.search.empty() ? "the options given" : "search on the validation split"},
      {"validation_rows", std::to_string(selected.validation_rows)},
      {"validation_seed", std::to_string(validation.seed)}};
  if (selected.validation_rows > 0) {
    provenance["validation_accuracy"] = std::to_string(selected.validation_accuracy);
  }
  stage.restart();
  svm::save_linear_model(selected.model, out, provenance);
  timings.emplace_back("write model", stage.lap());
  std::cout << "model: " << out << "\n";
  if (test && test->rows > 0) {
    print_test_accuracy(svm::predict_linear(selected.model, *test, options.threads), *test);
    timings.emplace_back("predict test", stage.lap());
  }
  return true;
}

int run_svm(const po::variables_map& vm) {
  // Every second of the run in some row, ending in the table: the search
  // alone is a part of the command's wall time (docs/PERF.md, "The search
  // alone").
  StageTimings timings{{"start-up", seconds_since_program_start()}};
  Stopwatch stage;
  svm::TrainOptions options = svm_options_from(vm);
  const ValidationChoice validation = validation_choice_from(vm);
  const ClassifierKind classifier = classifier_from(vm);
  svm::LinearOptions linear = linear_options_from(vm, options);
  const std::string dir = vm["features"].as<std::string>();
  const std::string out = vm["out"].as<std::string>();
  if (dir.empty()) throw UsageError("--features is empty; name the folder `cae extract` wrote");
  // Under a launcher every rank reads the features and solves its share of
  // the class pairs (or of the linear classifier's rows); rank 0 writes the
  // model and predicts.
  const DistributedRun distributed = distributed_run_from(vm, process_environment(), out);
  const Rendezvous& rendezvous = distributed.rendezvous;
  if (classifier == ClassifierKind::Linear) {
    if (vm.count("export-libsvm")) {
      throw UsageError(
          "--export-libsvm writes a kernel SVM; it does not apply to --classifier linear");
    }
    // Across ranks the backend carries the exchange, and with --linear-on
    // backend the passes; otherwise it is not needed.
    if (rendezvous.world == 1 && !linear_on_backend(vm)) {
      refuse_backend_options(vm, "is a backend option, and --classifier linear uses no backend "
                                 "(it runs on the host, with --svm-threads)");
    }
  }
  if (distributed.launcher) std::cout << distributed_run_text(distributed) << "\n";
  const bool primary = rendezvous.rank == 0;
  const po::variables_map placed = with_launcher_device(vm, distributed);
  std::optional<OutputLock> lock;
  if (primary) lock.emplace(claim_output_file(out, "--out"));
  std::vector<std::string> inputs;
  for (const char* split : {"train", "test"}) {
    for (const char* kind : {"_features.npy", "_labels.npy"}) {
      inputs.push_back(dir + "/" + split + kind);
    }
  }
  require_not_an_input(out, inputs);
  std::optional<OutputLock> export_lock;
  if (vm.count("export-libsvm") && primary) {
    if (vm["export-libsvm"].as<std::string>() == out) {
      throw UsageError("--export-libsvm names the same file as --out; give it another name");
    }
    require_not_an_input(vm["export-libsvm"].as<std::string>(), inputs, "--export-libsvm");
    export_lock.emplace(
        claim_output_file(vm["export-libsvm"].as<std::string>(), "--export-libsvm"));
  }
  // The backend is chosen (and a bad --backend refused) before the features are read.
  std::optional<BackendSession> chosen;
  const bool linear_backend = classifier == ClassifierKind::Linear && linear_on_backend(vm);
  if (classifier == ClassifierKind::Svm || rendezvous.world > 1 || linear_backend) {
    chosen.emplace(select_backend_session(placed));
  }
  timings.emplace_back(chosen ? "options and backend" : "options", stage.lap());
  const FeaturesRecord record = read_features_record(dir);
  svm::FeatureSet train = read_split(dir, "train", record.classes());
  // The test split is read before training too, so a damaged one fails at once.
  std::optional<svm::FeatureSet> test;
  if (std::filesystem::exists(dir + "/test_features.npy")) {
    test = read_split(dir, "test", record.classes());
  }
  check_splits(train, test, validation, dir);
  require_features_width(record, dir, train.dim);
  timings.emplace_back("read features", stage.lap());
  const auto release_features = [&] {
    std::vector<float>().swap(train.values);
    if (test) std::vector<float>().swap(test->values);
  };
  if (classifier == ClassifierKind::Linear && !chosen) {
    if (run_linear(train, test, linear, validation, dir, out, record.origin, 0, timings)) {
      print_stage_table(timings, release_features);
    }
    return 0;
  }
  if (classifier == ClassifierKind::Svm) {
    require_kernel_svm_fits(
        class_rows_after_split(train.labels, validation_rows(validation.rows, train.rows)),
        train.dim, options, 0);
  }
  BackendSession& session = *chosen;
  start_backend_session(session, placed, std::cout);
  std::unique_ptr<ProcessGroup> processes =
      join_ranks(rendezvous, *session.context, session.contexts().size());
  timings.emplace_back("start backend", stage.lap());
  // The process group and the contexts go after the features: the group
  // holds the backend's communicator on the contexts.
  const auto release_all = [&] {
    release_features();
    processes.reset();
    end_backend_session(*chosen);
    chosen.reset();
  };
  if (classifier == ClassifierKind::Linear) {
    linear.ranks = {processes.get(), session.context.get()};
    linear.devices =
        linear_devices(linear_place(vm), session.contexts(), train.rows, train.dim, std::cout);
    if (run_linear(train, test, linear, validation, dir, out, record.origin, rendezvous.rank,
                   timings)) {
      print_stage_table(timings, release_all);
    }
    return 0;
  }
  options.ranks = {processes.get(), session.context.get()};
  auto progress = attach_svm_progress(options);
  std::optional<SelectedSvm> selected_svm(
      select_and_train_svm(session.contexts(), train, options, validation, std::cout));
  SelectedSvm& selected = *selected_svm;
  timings.emplace_back("svm train", stage.lap());
  if (!primary) {
    std::cout << "rank " << rendezvous.rank << " done; rank 0 writes the model\n";
    return 0;
  }
  selected.model.origin = record.origin;
  const svm::TrainStats& stats = selected.stats;
  const svm::OvoModel& model = selected.model;
  std::printf("svm (%s%s%s): C %g, %lld support vectors, gamma %.3g, %.1f s, peak %.1f GiB in %d "
              "pairs at once\n",
              svm::solver_kind_name(selected.options.solver),
              model.kernel_values.empty() ? "" : ", kernel ", model.kernel_values.c_str(),
              selected.options.C,
              static_cast<long long>(stats.support_vectors), stats.gamma, stats.seconds,
              double(stats.peak_reserved_bytes) / (1u << 30), stats.peak_pairs_in_flight);
  std::cout << svm_phase_summary(stats);
  if (stats.unconverged_pairs > 0) {
    std::fprintf(stderr,
                 "cae svm: warning: %d class pair(s) stopped at the solver's iteration limit before "
                 "reaching --eps; the model is usable but not optimal (try a smaller C)\n",
                 stats.unconverged_pairs);
  }
  // The model file (a gigabyte of support vectors at CIFAR-10's size, with
  // its SHA-256) is written beside the libsvm export and the test
  // prediction, which only read the model; get() waits for it and rethrows
  // a failed write, and an exception before it waits in the future's
  // destructor.
  std::future<void> saved =
      std::async(std::launch::async, [&model, &out] { svm::save_model(model, out); });
  if (vm.count("export-libsvm")) {
    svm::export_libsvm_model(model, vm["export-libsvm"].as<std::string>());
    std::cout << "libsvm model: " << vm["export-libsvm"].as<std::string>()
              << (model.standardizer.empty() ? "" : " (expects standardized features)") << "\n";
    timings.emplace_back("export libsvm", stage.lap());
  }
  if (test && test->rows > 0) {
    const std::vector<int32_t> predicted = svm::predict(session.contexts(), model, *test).labels;
    const double predicting = stage.lap();
    std::printf("prediction: %lld test rows in %.2f s\n", static_cast<long long>(test->rows),
                predicting);
    print_test_accuracy(predicted, *test);
    timings.emplace_back("predict test", predicting);
  }
  // What the write took beyond the export and the prediction beside it.
  saved.get();
  timings.emplace_back("write model", stage.lap());
  std::cout << "model: " << out << "\n";
  print_stage_table(timings, [&] {
    selected_svm.reset();
    release_all();
  });
  return 0;
}

}  // namespace

Command svm_command() {
  return {"svm",
          "cae svm [--backend B] --features DIR [--classifier svm|linear] [--C 5] [--gamma "
          "auto|scale|VALUE] [--standardize] [--search [--validation N]] [--rank R --world-size W "
          "--nccl-id-file PATH] --out MODEL",
          "Train the classifier (kernel SVM, or --classifier linear) on extracted features",
          [](po::options_description& options, po::positional_options_description&) {
            add_backend_options(options);
            add_first_use_certification_option(options);
            options.add_options()
                ("features", path_value("--features")->required()->value_name("DIR"), "folder written by `cae extract`")
                ("out", output_file_value("--out")->required()->value_name("MODEL"), "model file to write (either classifier; the file says which)")
                ("export-libsvm", output_file_value("--export-libsvm")->value_name("FILE"), "also write the model in libsvm's own format");
            add_svm_options(options);
            add_classifier_options(options);
            add_validation_options(options, "0");
            add_distributed_options(options);
          },
          run_svm,
          "The SVM is one-vs-one: the backend computes the kernels, each class's diagonal\n"
          "block once and per class pair only the off-diagonal block, and each pair is solved\n"
          "by cae's SMO solver or by libsvm (the reference, 4x the memory); with --devices\n"
          "the kernels are computed on one producer thread per device, giving the same model.\n"
          "The model file records how the kernel was held. --search chooses C and gamma on a\n"
          "seeded validation split of the TRAINING rows, never on the test set. The kernels\n"
          "grow as rows^2: before any work cae estimates the SVM's host memory and refuses\n"
          "(exit 2) when it exceeds what is available (MemAvailable or the cgroup limit),\n"
          "naming --classifier linear, whose memory grows as rows x dim. docs/classifiers.md\n"
          "gives both curves and the search. The run ends with a table of its stages, which\n"
          "sums to its wall time.\n\n"
          "Under mpirun, srun or torchrun (or with --rank and --world-size) every rank reads\n"
          "the features and solves its share of the class pairs on its own device (and on\n"
          "its host threads where --svm-on says host)\n"
          "(the linear classifier: its share of the rows, the sums exchanged through the\n"
          "backend), and rank 0 writes the model (the same file as one process makes) and\n"
          "predicts (docs/distributed.md).\n"};
}

}  // namespace cae::cli
