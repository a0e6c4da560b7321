// `cae svm`: one-vs-one libsvm on extracted features, kernels on the backend.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "backend_session.hpp"
#include "commands.hpp"
#include "io/npy.hpp"
#include "option_checks.hpp"
#include "svm/libsvm_export.hpp"
#include "svm/model_file.hpp"
#include "svm/predictor.hpp"
#include "svm_options.hpp"

namespace cae::cli {
namespace {

svm::FeatureSet read_split(const std::string& dir, const std::string& split) {
  FloatMatrix features = read_npy_matrix(dir + "/" + split + "_features.npy");
  std::vector<int64_t> labels = read_npy_integers(dir + "/" + split + "_labels.npy");
  if (labels.size() != features.rows) {
    throw std::runtime_error(dir + "/" + split + "_labels.npy has " + std::to_string(labels.size()) +
                             " labels for " + std::to_string(features.rows) + " feature rows");
  }
  svm::FeatureSet set;
  set.rows = int64_t(features.rows);
  set.dim = int64_t(features.cols);
  set.values = std::move(features.values);
  set.labels.assign(labels.begin(), labels.end());
  return set;
}

int run_svm(const po::variables_map& vm) {
  svm::TrainOptions options = svm_options_from(vm);
  const std::string dir = vm["features"].as<std::string>();
  const std::string out = vm["out"].as<std::string>();
  prepare_output_file(out);
  if (vm.count("export-libsvm")) prepare_output_file(vm["export-libsvm"].as<std::string>());
  svm::FeatureSet train = read_split(dir, "train");
  BackendSession session = open_backend_session(vm, std::cout);
  auto progress = attach_svm_progress(options);
  svm::TrainStats stats;
  svm::OvoModel model = svm::train_ovo(*session.context, train, options, &stats);
  std::printf("svm: %lld support vectors, gamma %.3g, %.1f s, peak %.1f GiB in %d pairs at once\n",
              static_cast<long long>(stats.support_vectors), stats.gamma, stats.seconds,
              double(stats.peak_reserved_bytes) / (1u << 30), stats.peak_pairs_in_flight);
  svm::save_model(model, out);
  std::cout << "model: " << out << "\n";
  if (vm.count("export-libsvm")) {
    svm::export_libsvm_model(model, vm["export-libsvm"].as<std::string>());
    std::cout << "libsvm model: " << vm["export-libsvm"].as<std::string>()
              << (model.standardizer.empty() ? "" : " (expects standardized features)") << "\n";
  }
  if (std::filesystem::exists(dir + "/test_features.npy")) {
    svm::FeatureSet test = read_split(dir, "test");
    svm::Prediction prediction = svm::predict(session.contexts(), model, test);
    int64_t correct = 0;
    for (int64_t i = 0; i < test.rows; ++i) correct += prediction.labels[size_t(i)] == test.labels[size_t(i)];
    std::printf("test accuracy: %.2f%% (%lld/%lld)\n", 100.0 * double(correct) / double(test.rows),
                static_cast<long long>(correct), static_cast<long long>(test.rows));
  }
  return 0;
}

}  // namespace

Command svm_command() {
  return {"svm", "cae svm [--backend B] --features DIR [--C 5] [--gamma auto|scale|VALUE] [--standardize] --out MODEL",
          "Train the one-vs-one SVM (libsvm, kernels on the backend) on extracted features",
          [](po::options_description& options, po::positional_options_description&) {
            add_backend_options(options);
            options.add_options()
                ("features", po::value<std::string>()->required()->value_name("DIR"), "folder written by `cae extract`")
                ("out", po::value<std::string>()->required()->value_name("MODEL"), "SVM model file to write")
                ("export-libsvm", po::value<std::string>()->value_name("FILE"), "also write the model in libsvm's own format");
            add_svm_options(options);
          },
          run_svm};
}

}  // namespace cae::cli
