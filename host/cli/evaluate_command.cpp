// `cae evaluate`: classify the test set with a trained encoder and SVM; write
// the report.
#include <cstdio>
#include <iostream>

#include "backend_session.hpp"
#include "commands.hpp"
#include "evaluation.hpp"
#include "nn/features.hpp"
#include "option_checks.hpp"
#include "report/stopwatch.hpp"
#include "svm/model_file.hpp"

namespace cae::cli {
namespace {

int run_evaluate(const po::variables_map& vm) {
  const std::string weights = vm["weights"].as<std::string>();
  const std::string out = vm["out"].as<std::string>();
  const std::string data_dir = resolve_data_dir(vm);
  const OutputLock lock = claim_output_directory(out);
  nn::Checkpoint checkpoint = nn::load_checkpoint(weights);
  svm::OvoModel svm_model = svm::load_model(vm["svm"].as<std::string>());
  BackendSession session = open_backend_session(vm, std::cout);
  CifarData data = load_cifar(data_dir);
  nn::Autoencoder model(*session.context, checkpoint.parameters);
  Stopwatch encode_clock;
  svm::FeatureSet test = to_feature_set(
      nn::extract_features(*session.context, model, data.test, 256, &std::cout, "encode test"), data.test);
  ReportData report;
  report.title = "cae evaluation";
  report.backend = session.backend->name;
  report.device = session.device.name;
  report.settings = {{"weights", weights}, {"svm", vm["svm"].as<std::string>()}, {"test images", std::to_string(test.rows)}};
  report.stage_timings.emplace_back(
      "encode test", encode_clock.seconds());
  EvaluationOutcome outcome = evaluate_and_report(*session.context, model, svm_model, data, test,
                                                  checkpoint.state, report, out);
  std::printf("test accuracy: %.2f%%\nreport: %s\n", 100.0 * outcome.accuracy, outcome.report_path.c_str());
  return 0;
}

}  // namespace

Command evaluate_command() {
  return {"evaluate", "cae evaluate [--backend B] --weights CKPT --svm MODEL [--data DIR] --out DIR",
          "Classify the test set; write accuracy, confusion matrix, predictions and report.html",
          [](po::options_description& options, po::positional_options_description&) {
            add_backend_options(options);
            add_data_option(options);
            options.add_options()
                ("weights", po::value<std::string>()->required()->value_name("CKPT"), "trained checkpoint")
                ("svm", po::value<std::string>()->required()->value_name("MODEL"), "model from `cae svm`")
                ("out", po::value<std::string>()->required()->value_name("DIR"), "report folder");
          },
          run_evaluate};
}

}  // namespace cae::cli
