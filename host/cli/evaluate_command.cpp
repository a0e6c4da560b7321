// `cae evaluate`: classify the test set with a trained encoder and SVM; write
// the report.
#include <cstdio>
#include <iostream>
#include <optional>

#include "backend_session.hpp"
#include "commands.hpp"
#include "data_formats_help.hpp"
#include "data_options.hpp"
#include "evaluation.hpp"
#include "feature_options.hpp"
#include "first_use_certification.hpp"
#include "ignored_options.hpp"
#include "io/output_set.hpp"
#include "nn/features.hpp"
#include "nn/latent_sparsity.hpp"
#include "option_checks.hpp"
#include "path_options.hpp"
#include "provenance.hpp"
#include "nn/weights_identity.hpp"
#include "report/stopwatch.hpp"
#include "svm/linear_model.hpp"
#include "svm/model_file.hpp"
#include "single_process.hpp"

namespace cae::cli {
namespace {

int run_evaluate(const po::variables_map& vm) {
  require_single_process("cae evaluate");
  const std::string weights = vm["weights"].as<std::string>();
  const std::string out = vm["out"].as<std::string>();
  const DataRequest request = data_request_from(vm);
  nn::FeatureRecipe recipe = feature_recipe_from(vm);
  const FolderClaim claim = claim_output_directory(out, report_files(), "--out");
  nn::Checkpoint checkpoint = nn::load_checkpoint(weights);
  const std::string svm_path = vm["svm"].as<std::string>();
  // `cae svm` writes either classifier; the file says which.
  std::optional<svm::LinearModel> linear;
  svm::OvoModel svm_model;
  if (svm::is_linear_model_file(svm_path)) {
    linear = svm::load_linear_model(svm_path);
  } else {
    svm_model = svm::load_model(svm_path);
  }
  // What the classifier was trained on, either kind (svm/feature_origin.hpp).
  const svm::FeatureOrigin& trained = linear ? linear->origin : svm_model.origin;
  // Without --features, the features the classifier was trained on (its
  // file records the recipe): a run folder evaluates as it was made.
  if (!trained.recipe.empty() && !option_given(vm, "features") &&
      !option_given(vm, "feature-threshold")) {
    recipe = nn::feature_recipe(trained.recipe);
  }
  const std::string weights_sha256 = nn::weights_identity(checkpoint.parameters);
  require_classifier_features(svm_path, trained, recipe, weights, weights_sha256);
  const int64_t model_dim = linear ? linear->dim : svm_model.dim;
  const std::vector<int32_t>& model_classes = linear ? linear->classes : svm_model.classes;
  // A model of other features or classes would only fail after encoding.
  const nn::Network& network = checkpoint.parameters.network;
  require_recipe_fits(recipe, network);
  if (model_dim != recipe.dim(network)) {
    throw std::runtime_error(svm_path + " classifies " + std::to_string(model_dim) +
                             "-d features; --features " + recipe.name + " gives " +
                             std::to_string(recipe.dim(network)) + " with the model '" +
                             network.description().name + "'");
  }
  BackendSession session = select_backend_session(vm);
  const DataSplits data = load_requested_data(vm, request);
  require_labelled(data, "cae evaluate");
  const DataRecord record = data_record_from(request, data);
  require_trained_input(weights, checkpoint, record);
  require_network_input(network, data.test, data.location);
  // After the shape: images the network cannot encode are the first problem.
  require_classifier_data(svm_path, trained, record);
  const int classes = int(data.class_names.size());
  for (int32_t label : model_classes) {
    if (label < 0 || label >= classes) {
      throw std::runtime_error(svm_path + " has class " + std::to_string(label) + ", but " +
                               data.location + " has classes 0.." + std::to_string(classes - 1));
    }
  }
  start_backend_session(session, vm, std::cout);
  note_transfer(weights, checkpoint, record, std::cout);
  nn::Autoencoder model(*session.context, checkpoint.parameters);
  // The reconstructions decode as the training did (wta-spatial: the winners).
  model.set_sparsity(nn::parse_sparsity(checkpoint.state.sparsity));
  Stopwatch encode_clock;
  svm::FeatureSet test =
      to_feature_set(nn::extract_features(*session.context, model, recipe, data.test, 256,
                                          &std::cout, "encode test"),
                     recipe.dim(network), data.test);
  ReportData report;
  report.title = "cae evaluation";
  report.backend = session.backend->name;
  report.device = session.device.name;
  report.settings = {{"weights", weights},
                     {"svm", svm_path},
                     feature_setting(recipe, network),
                     {"input transform", describe_input_transform(
                                             checkpoint.parameters.input
                                                 ? checkpoint.parameters.input->spec
                                                 : InputTransformSpec{})},
                     {"sparsity", checkpoint.state.sparsity},
                     {"weights sha256", weights_sha256},
                     {"trained on", checkpoint.state.data
                                        ? data_record_summary(*checkpoint.state.data)
                                        : std::string("not recorded")}};
  for (auto& setting : data_record_rows(record)) report.settings.push_back(std::move(setting));
  add_backend_options_setting(session, report);
  report.stage_timings.emplace_back(
      "encode test", encode_clock.seconds());
  if (linear) {
    report.settings.push_back(
        {"classifier", std::string("linear (") + svm::linear_loss_description(linear->objective) + ")"});
  }
  OutputSet set(out, "cae evaluate");  // the report's files replace the old ones together
  EvaluationOutcome outcome =
      linear ? evaluate_and_report(
                   *session.context, model,
                   [&](const svm::FeatureSet& rows) { return svm::predict_linear(*linear, rows); },
                   "linear predict", data, test, checkpoint.state, report, out)
             : evaluate_and_report(*session.context, model, svm_model, data, test,
                                   checkpoint.state, report, out);
  set.publish();
  std::printf("test accuracy: %.2f%%\nreport: %s\n", 100.0 * outcome.accuracy, outcome.report_path.c_str());
  return 0;
}

}  // namespace

Command evaluate_command() {
  return {"evaluate",
          "cae evaluate [--backend B] --weights CKPT --svm MODEL [--data PATH] [--data-format F] "
          "[--features NAME] "
          "--out DIR",
          "Classify the test set; write accuracy, confusion matrix, predictions and a report",
          [](po::options_description& options, po::positional_options_description&) {
            add_backend_options(options);
            add_first_use_certification_option(options);
            add_data_options(options);
            add_features_option(options);
            options.add_options()
                ("weights", path_value("--weights")->required()->value_name("CKPT"), "trained checkpoint")
                ("svm", path_value("--svm")->required()->value_name("MODEL"), "classifier from `cae svm` (kernel SVM or --classifier linear: the file says which)")
                ("out", path_value("--out")->required()->value_name("DIR"), "report folder");
          },
          run_evaluate,
          std::string(
              "Without --features and --feature-threshold, the features are made with the\n"
              "recipe the classifier's file records (so a run folder evaluates as it was made);\n"
              "for a file that records none, with --features' default. A classifier trained on\n"
              "features of other weights, another recipe or other data than --weights,\n"
              "--features and --data give is refused (exit 2).\n\n") +
              kDataFormatsHelp};
}

}  // namespace cae::cli
