// `cae pipeline`: data -> train -> features -> SVM -> evaluation and report,
// ending with a table of stage timings.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <future>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>

#include "backend_session.hpp"
#include "classifier_options.hpp"
#include "commands.hpp"
#include "data/image_subset.hpp"
#include "data/synthetic_dataset.hpp"
#include "data_formats_help.hpp"
#include "data_options.hpp"
#include "device_list.hpp"
#include "distributed_options.hpp"
#include "evaluation.hpp"
#include "feature_options.hpp"
#include "first_use_certification.hpp"
#include "io/output_set.hpp"
#include "linear_selection.hpp"
#include "model_options.hpp"
#include "nn/features.hpp"
#include "nn/latent_sparsity.hpp"
#include "nn/weights_identity.hpp"
#include "option_checks.hpp"
#include "path_options.hpp"
#include "pipeline_defaults.hpp"
#include "report/stopwatch.hpp"
#include "report/timing_table.hpp"
#include "svm/linear_model.hpp"
#include "svm/model_file.hpp"
#include "svm/solver_kind.hpp"
#include "svm/validation.hpp"
#include "svm_options.hpp"
#include "svm_selection.hpp"
#include "training_recipe.hpp"

namespace cae::cli {
namespace {

// Without CIFAR-10 the job still runs end to end: on a generated set sized so a
// 2-core machine finishes in minutes.
constexpr int64_t kSynthTrain = 3000;
constexpr int64_t kSynthTest = 600;
constexpr int kSynthEpochs = 4;
constexpr char kSynthDir[] = "synthetic-data";

// What the pipeline writes in --out besides the report's files.
constexpr char kModelFile[] = "model.safetensors";
constexpr char kFeaturesFile[] = "features.json";
constexpr char kSvmFile[] = "svm.model";
constexpr char kLinearFile[] = "linear.model";

// Without --data and without CIFAR-10 under data/, the pipeline makes its
// own data set inside --out.
bool makes_synthetic_data(const po::variables_map& vm) {
  if (data_given(vm)) return false;
  try {
    data_request_from(vm);
    return false;
  } catch (const UsageError&) {
    return true;
  }
}

// Every file the pipeline may write in --out (names relative to it).
std::vector<std::string> pipeline_files(bool synthetic) {
  std::vector<std::string> names = report_files();
  names.insert(names.end(), {kModelFile, kFeaturesFile, kSvmFile, kLinearFile});
  if (synthetic) {
    std::vector<std::string> data = synthetic_cifar_files(kSynthTrain);
    data.push_back(kSetManifestName);
    for (const std::string& name : data) names.push_back(std::string(kSynthDir) + "/" + name);
  }
  return names;
}

// The data the options name; without --data and without CIFAR-10 under data/,
// a synthetic set written inside --out.
DataRequest find_or_make_data(const po::variables_map& vm, const std::string& out,
                              bool& synthetic) {
  synthetic = makes_synthetic_data(vm);
  if (!synthetic) return data_request_from(vm);
  const std::string dir = out + "/" + kSynthDir;
  std::cout << "no CIFAR-10 under data/ and no --data (put cifar-10-batches-bin/ under data/, "
               "or let `cae data fetch data` download it): running on a synthetic 10-class set ("
            << kSynthTrain << " train, " << kSynthTest << " test images) in " << dir << "\n";
  // The folder is the pipeline's own (inside --out): replacing a set an
  // earlier run generated there is expected. It is a folder written as a
  // whole, so locked like any other (a `cae data synth` into it meanwhile is
  // refused).
  const FolderClaim claim =
      claim_output_directory(dir, synthetic_cifar_files(kSynthTrain), "--out");
  write_synthetic_cifar(dir, kSynthTrain, kSynthTest, 1, SyntheticOverwrite::kReplace);
  // Not data_request_from(vm): it would look for data/ again and refuse.
  DataRequest request;
  request.options = data_options_from(vm);
  request.path = dir;
  return request;
}

// The report's title, device and the settings of the stages before the classifier.
// The data's rows (data/data_record.hpp) come first.
ReportData pipeline_report(const BackendSession& session, const DataRecord& record, bool synthetic,
                           const nn::TrainOptions& train_options, const nn::FeatureRecipe& recipe,
                           const nn::Network& network) {
  ReportData report;
  report.title = "cae pipeline";
  report.backend = session.backend->name;
  report.device = session.device.name;
  report.settings = data_record_rows(record);
  if (synthetic) report.settings.front().second += " (synthetic)";
  const std::vector<std::pair<std::string, std::string>> run = {
      {"model", network.description().name},
      {"recipe", train_options.recipe},
      {"optimizer", train_options.optimizer.kind},
      {"learning rate", std::to_string(train_options.optimizer.learning_rate)},
      {"epochs", std::to_string(train_options.epochs)},
      {"batch", std::to_string(train_options.batch_size)},
      {"seed", std::to_string(train_options.seed)},
      {"augment", augmentation_name(train_options.augment)},
      {"input noise", std::to_string(train_options.input_noise)},
      {"lr schedule", nn::lr_schedule_name(train_options.lr_schedule)},
      {"input transform", describe_input_transform(train_options.input)},
      {"sparsity", nn::sparsity_name(train_options.sparsity)},
      {"execution", nn::execution_name(train_options.execution)},
      feature_setting(recipe, network)};
  report.settings.insert(report.settings.end(), run.begin(), run.end());
  return report;
}

// The report's last rows: waits for the classifier's file, written beside
// the evaluation ("write outputs"); frees what the run holds ("release
// memory"); then what no stage covered ("other"). Left to the process's exit,
// freeing gigabytes of features and support vectors and the device's
// tensors and contexts took 0.4 s that no row of the table showed.
// `release` (the features, the images, the autoencoder and the devices'
// contexts, none of which the file needs) runs on a second thread while the
// file is written, so "release memory" holds only what the write did not
// hide, and `release_classifier` (the model the file is written from) after
// it.
BeforePage settle_stages(std::future<void>* classifier_saved, std::function<void()> release,
                         std::function<void()> release_classifier = {}) {
  return [classifier_saved, release = std::move(release),
          release_classifier = std::move(release_classifier)](StageTimings& timings) {
    Stopwatch writing;
    // Nothing else uses the contexts now: the thread may free them.
    std::future<void> released = std::async(std::launch::async, release);
    if (classifier_saved) classifier_saved->get();
    timings.emplace_back("write outputs", writing.seconds());
    Stopwatch releasing;
    released.get();
    if (release_classifier) release_classifier();
    timings.emplace_back("release memory", releasing.seconds());
    account_the_rest(timings);
  };
}

// Where the "extract features" stage's seconds go.
struct FeaturePhases {
  double report_model = 0;  // the autoencoder the report's reconstructions use
  double storage = 0;       // waiting for the rows' memory, made during training
  double setup = 0;         // extraction contexts and model copies
  double train = 0;         // encoding the training images (and receiving them from ranks)
  double test = 0;
  double records = 0;       // feature sets, weights identity, features.json
};

std::string features_phase_line(const FeaturePhases& p) {
  char line[256];
  std::snprintf(line, sizeof line,
                "features phases: report model %.2f s, rows' memory %.2f s, extraction setup "
                "%.2f s, encode train %.2f s, encode test %.2f s, feature sets and features.json "
                "%.2f s\n",
                p.report_model, p.storage, p.setup, p.train, p.test, p.records);
  return line;
}

// Prints the stage table, its "other" row brought up to now (publishing).
int finish(EvaluationOutcome outcome, const std::string& backend_name, bool synthetic,
           const std::string& data_dir) {
  account_the_rest(outcome.timings);
  std::cout << "\n" << format_timing_table(outcome.timings) << "\n";
  std::printf("test accuracy: %.2f%% (%s, %s)\nreport: %s\n", 100.0 * outcome.accuracy,
              backend_name.c_str(), synthetic ? "synthetic data" : data_dir.c_str(),
              outcome.report_path.c_str());
  return 0;
}

// --hold-out-validation is refused, before any work, where there is no split
// to keep out of the autoencoder's images: none asked for, or an autoencoder
// trained on the unlabelled split, which holds none of the labelled rows.
void require_split_to_hold_out(const po::variables_map& vm, const ValidationChoice& validation) {
  if (!vm.count("hold-out-validation")) return;
  if (vm.count("unlabelled")) {
    throw UsageError(
        "--hold-out-validation: with --unlabelled the autoencoder trains on the unlabelled "
        "split, which holds no validation rows to keep out");
  }
  if (validation.rows == "0") {
    throw UsageError(
        "--hold-out-validation needs a validation split; --validation 0 holds out no rows");
  }
}

// Rows --hold-out-validation keeps out of the autoencoder's images: the
// validation split's (0 without the option).
int64_t autoencoder_held_out_rows(const po::variables_map& vm, const ValidationChoice& validation,
                                  const DataSplits& data) {
  if (!vm.count("hold-out-validation")) return 0;
  const int64_t rows = validation_rows(validation.rows, int64_t(data.train.size()));
  if (rows <= 0) {
    const std::string images = std::to_string(data.train.size());
    throw UsageError("--hold-out-validation: --validation " + validation.rows +
                     " holds out no rows of " + images + " training images");
  }
  return rows;
}

void declare_pipeline_options(po::options_description& options,
                              po::positional_options_description&) {
  add_backend_options(options);
  add_first_use_certification_option(options);
  add_data_options(options);
  add_unlabelled_option(options);
  options.add_options()(
      "out", path_value("--out")->default_value("run")->value_name("DIR"),
      "output folder")("samples", po::value<int64_t>()->default_value(0)->value_name("N"),
                       "training images to use (0 = all)");
  add_model_option(options);
  add_training_options(options);
  add_features_option(options);
  add_svm_options(options);
  add_classifier_options(options);
  add_validation_options(options, "auto");
  options.add_options()(
      "hold-out-validation",
      "train the autoencoder without the validation split's images too, so that the "
      "validation accuracy scores features of images the network never saw, as the test "
      "set's are (default: the autoencoder trains on every training image, labels unused)");
  add_pipeline_defaults_option(options);
  add_distributed_options(options);
}

int run_pipeline(const po::variables_map& given) {
  po::options_description options;
  po::positional_options_description positionals;
  declare_pipeline_options(options, positionals);
  const std::vector<std::string> implied =
      implied_pipeline_arguments(given, makes_synthetic_data(given));
  const po::variables_map vm = with_pipeline_defaults(given, options, implied);
  const std::string out = vm["out"].as<std::string>();
  nn::TrainOptions train_options = training_options_from(vm);
  const nn::FeatureRecipe& recipe = feature_recipe_from(vm);
  const nn::ModelDescription model_description = model_description_from(vm);
  require_recipe_fits(recipe, model_description);
  svm::TrainOptions svm_options = svm_options_from(vm);
  const ValidationChoice validation = validation_choice_from(vm);
  require_split_to_hold_out(vm, validation);
  const ClassifierKind classifier = classifier_from(vm);
  svm::LinearOptions linear_options = linear_options_from(vm, svm_options);
  const auto samples = option_in_range<int64_t>(vm, "samples", 0, 100000000);
  if (data_given(vm)) data_request_from(vm);  // every data option checked before any work
  // Under a launcher every rank trains and encodes its share of the images
  // and solves its share of the classifier; rank 0 alone predicts and
  // writes the folder (docs/distributed.md). The ranks' exchange files go
  // beside the folder.
  const DistributedRun distributed = distributed_run_from(vm, process_environment(), out);
  const Rendezvous& rendezvous = distributed.rendezvous;
  if (rendezvous.world > 1 && makes_synthetic_data(vm)) {
    throw UsageError(
        "across ranks it needs --data (or CIFAR-10 under data/): every rank reads the same "
        "images, and the synthetic set would be written inside --out, which rank 0 alone writes");
  }
  if (distributed.launcher) std::cout << distributed_run_text(distributed) << "\n";
  const bool primary = rendezvous.rank == 0;
  std::optional<FolderClaim> claim;
  if (primary) {
    claim.emplace(claim_output_directory(out, pipeline_files(makes_synthetic_data(vm)), "--out"));
  }
  const po::variables_map placed = with_launcher_device(vm, distributed);
  BackendSession session = select_backend_session(placed);

  // Start-up: from the program's start through certification on first use
  // and discovery to here.
  StageTimings timings{{"start-up", seconds_since_program_start()}};
  Stopwatch stage;
  // The backend's contexts are made while the data loads: a GPU's context
  // (its driver state, streams and libraries) and reading the images need
  // nothing of each other, and the data stage did them one after the other.
  // The backend's line is printed once both are done; a context that cannot
  // be made is reported then, and a data error first (this future's
  // destructor waits for the contexts before they are freed).
  std::ostringstream session_log;
  std::future<void> session_started = std::async(
      std::launch::async,
      [&session, &placed, &session_log] { start_backend_session(session, placed, session_log); });
  bool synthetic = false;
  DataRequest request = find_or_make_data(vm, out, synthetic);
  if (synthetic && !vm.count("epochs")) train_options.epochs = kSynthEpochs;
  request.options.max_train = size_t(samples);
  DataSplits data = load_requested_data(vm, request);
  const std::string data_dir = data.location;
  require_labelled(data, "cae pipeline");
  const ImageSet& train_images = autoencoder_images(data, request);
  require_available(samples, train_images.size(), "--samples", data_dir, "training images");
  // The network follows the training images; the test images must match them.
  const nn::Network network = bind_model(model_description, train_images.channels, train_images.side);
  for (const ImageSet* images :
       std::initializer_list<const ImageSet*>{&train_images, &data.train, &data.test}) {
    require_network_input(network, *images, data_dir);
  }
  nn::require_sparsity_fits(network, train_options.sparsity);
  require_whitening_fits(train_options.input, network.image_side());
  // What the classifier stage needs of the data is checked now, not after
  // training (the same checks as `cae svm`).
  const std::vector<int32_t> labels(data.train.labels.begin(), data.train.labels.end());
  check_svm_training_labels(labels, validation,
                            "the " + std::to_string(data.train.size()) + " training images of " +
                                data_dir);
  const int64_t held_out = autoencoder_held_out_rows(vm, validation, data);
  std::optional<ImageSet> fit_images;
  if (held_out > 0) {
    fit_images = images_without(data.train, svm::held_out_rows(labels, held_out, validation.seed));
  }
  const ImageSet& autoencoder_set = fit_images ? *fit_images : train_images;
  if (classifier == ClassifierKind::Svm) {
    // Before hours of training: the features are still to come.
    require_kernel_svm_fits(
        class_rows_after_split(labels, validation_rows(validation.rows, int64_t(labels.size()))),
        recipe.dim(network), svm_options,
        uint64_t(data.train.size() + data.test.size()) * uint64_t(recipe.dim(network)) *
            sizeof(float));
  }
  log_pipeline_defaults(implied, std::cout);
  session_started.get();
  std::cout << session_log.str();
  require_model_fits_device(network, session.device);
  require_execution_supported(train_options.execution, *session.context);
  timings.emplace_back("data", stage.seconds());
  std::cout << "data: " << data.train.size() << " train, " << data.test.size()
            << " test images from " << data_dir << " (" << data_format_name(data.format) << ", "
            << data.class_names.size() << " classes"
            << (&train_images == &data.unlabelled
                    ? ", autoencoder on " + std::to_string(train_images.size()) + " unlabelled"
                    : std::string())
            << (held_out > 0 ? ", autoencoder on the " + std::to_string(autoencoder_set.size()) +
                                   " outside the validation split"
                             : std::string())
            << ")\n";

  Context& context = *session.context;
  train_options.backend = session.backend->name;
  const std::string backend_name =
      session.backend->name;  // the backends are unloaded before the end
  train_options.backend_options = session.options_in_effect();
  DataRecord record = data_record_from(request, data, &train_images);
  record.autoencoder_held_out = held_out;
  record.autoencoder_held_out_seed = held_out > 0 ? validation.seed : 0;
  train_options.data = record;
  // Rank 0 alone saves the model (and evaluates the test set each epoch).
  train_options.checkpoint_path = primary ? out + "/" + kModelFile : "";
  train_options.checkpoint_on_interrupt = false;
  train_options.checkpoint_each_epoch = false;
  // Model, features.json, SVM and report replace the previous run's together
  // at the end; a run stopped before keeps the previous run's files.
  // (synthetic-data/ is a set of its own, in place before training.)
  std::optional<OutputSet> set;
  if (primary) set.emplace(out, "cae pipeline");
  std::unique_ptr<ProcessGroup> processes = join_ranks(
      rendezvous, *session.context, session.contexts().size(), train_options.batch_size);
  train_options.processes = processes.get();

  // The feature rows' memory is made while the device trains (the training
  // loop leaves the host's cores idle), not after it: zeroing 1.6 GB of new
  // pages took 0.7 s. Across ranks the rows are gathered into memory of
  // their own (nn/features.hpp).
  const size_t feature_dim = size_t(recipe.dim(network));
  std::future<std::pair<std::vector<float>, std::vector<float>>> feature_storage;
  if (!processes) {
    feature_storage = std::async(std::launch::async, [&data, feature_dim] {
      return std::make_pair(std::vector<float>(data.train.size() * feature_dim),
                            std::vector<float>(data.test.size() * feature_dim));
    });
  }

  stage.restart();
  nn::Checkpoint start;
  start.parameters = nn::Parameters::he_normal(network, train_options.seed);
  require_batch_divisible(train_options.batch_size, session.contexts().size());
  nn::TrainOutcome trained = nn::train_autoencoder(session.contexts(), autoencoder_set, data.test,
                                                   train_options, start, std::cout);
  // The held-out copy of the images served training alone: its memory goes
  // back before the features' and the classifier's (autoencoder_set is not
  // read past here).
  fit_images.reset();
  if (trained.interrupted) {
    std::cout << "pipeline stopped: " << out << " keeps the previous run's files\n";
    return 128 + trained.signal;
  }
  timings.emplace_back("train", stage.seconds());

  stage.restart();
  // The stage's parts, for the "features phases" line.
  FeaturePhases phases;
  Stopwatch phase;
  std::optional<nn::Autoencoder> model;  // released with the device's contexts, before exit
  model.emplace(context, trained.final_state.parameters, train_options.execution);
  model->set_sparsity(train_options.sparsity);  // the report's reconstructions decode as trained
  const nn::Parameters& weights = trained.final_state.parameters;
  phases.report_model = phase.lap();
  // Each rank encodes its share of each split; rank 0 receives the test rows
  // and every rank the training rows: each solves its share of the SVM's
  // class pairs (or of the linear classifier's rows) on them.
  std::vector<float> train_rows, test_rows;
  if (feature_storage.valid()) std::tie(train_rows, test_rows) = feature_storage.get();
  phases.storage = phase.lap();
  {
    const nn::FeatureExtractor extractor(session.contexts(), weights);
    phases.setup = phase.lap();
    train_rows = extractor.extract(recipe, data.train, 256, &std::cout, "encode train",
                                   processes.get(), RowsTo::EveryRank, std::move(train_rows));
    phases.train = phase.lap();
    test_rows = extractor.extract(recipe, data.test, 256, &std::cout, "encode test",
                                  processes.get(), RowsTo::Rank0, std::move(test_rows));
    phases.test = phase.lap();
  }
  svm::FeatureSet train_features = to_feature_set(std::move(train_rows), recipe.dim(network), data.train);
  svm_options.ranks = {processes.get(), session.context.get()};
  linear_options.ranks = svm_options.ranks;
  if (classifier == ClassifierKind::Linear) {
    linear_options.devices = linear_devices(linear_place(vm), session.contexts(),
                                            train_features.rows, train_features.dim, std::cout);
  }
  if (!primary) {
    if (classifier == ClassifierKind::Linear) {
      select_and_train_linear(train_features, linear_options, validation, std::cout);
    } else {
      select_and_train_svm(session.contexts(), train_features, svm_options, validation, std::cout);
    }
    std::cout << "rank " << rendezvous.rank << " done; rank 0 predicts and writes " << out << "\n";
    return 0;
  }
  svm::FeatureSet test_features = to_feature_set(std::move(test_rows), recipe.dim(network), data.test);
  const std::string weights_sha256 = nn::weights_identity(weights);
  write_features_json(out + "/" + kFeaturesFile, recipe, network, train_options.checkpoint_path,
                      weights_sha256, trained.final_state, record);
  // What either classifier records of its features (svm/feature_origin.hpp).
  const svm::FeatureOrigin origin{recipe.name, weights_sha256, train_options.checkpoint_path,
                                  data_record_json(record).dump()};
  phases.records = phase.lap();
  std::cout << features_phase_line(phases) << std::flush;
  timings.emplace_back("extract features", stage.seconds());
  // Once the report's figures are made: the features, the images, the
  // model's device tensors, then the exchange and the devices' contexts
  // (each before what it was made on).
  const auto release_run = [&] {
    train_features = svm::FeatureSet();
    test_features = svm::FeatureSet();
    data = DataSplits();
    model.reset();
    processes.reset();
    end_backend_session(session);
  };

  if (classifier == ClassifierKind::Linear) {
    stage.restart();
    SelectedLinear selected =
        select_and_train_linear(train_features, linear_options, validation, std::cout);
    selected.model.origin = origin;
    const std::string model_path = out + "/" + kLinearFile;
    std::map<std::string, std::string> provenance{
        {"features", out + "/" + kFeaturesFile},
        {"validation_rows", std::to_string(selected.validation_rows)},
        {"validation_seed", std::to_string(validation.seed)}};
    svm::save_linear_model(selected.model, model_path, provenance);
    timings.emplace_back("linear train", stage.seconds());
    ReportData report =
        pipeline_report(session, record, synthetic, train_options, recipe, network);
    report.settings.push_back({"weights sha256", weights_sha256});
    report.settings.push_back({"classifier", std::string("linear (") +
                                                 svm::linear_loss_description(linear_options.loss) +
                                                 ")"});
    report.settings.push_back({"linear C", std::to_string(selected.C)});
    report.settings.push_back({"linear iterations", std::to_string(selected.model.iterations) +
                                                        (selected.model.converged ? " (converged)"
                                                                                  : " (limit)")});
    report.settings.push_back({"C chosen by", selected.search.empty()
                                                  ? "the options given"
                                                  : "search on the validation split"});
    report.settings.push_back({"standardize", linear_options.standardize ? "yes" : "no"});
    report.settings.push_back(
        {"linear passes on", linear_options.devices.empty() ? "host (OpenBLAS)" : "the backend"});
    report.settings.push_back({"validation rows", std::to_string(selected.validation_rows) +
                                                      " (seed " + std::to_string(validation.seed) +
                                                      ")"});
    if (selected.validation_rows > 0) {
      char text[32];
      std::snprintf(text, sizeof text, "%.2f%%", 100.0 * selected.validation_accuracy);
      report.settings.push_back({"validation accuracy", text});
    }
    report.stage_timings = timings;
    const EvaluationOutcome outcome = evaluate_and_report(
        context, *model,
        [&](const svm::FeatureSet& rows) {
          return svm::predict_linear(selected.model, rows, linear_options.threads);
        },
        "linear predict", data, test_features, trained.final_state.state, report, out,
        settle_stages(nullptr, release_run));
    set->publish();
    return finish(outcome, backend_name, synthetic, data_dir);
  }

  stage.restart();
  auto progress = attach_svm_progress(svm_options);
  // Writing the model (1.1 GB at 32,000 support vectors x 8,192 floats: about
  // a second, its SHA-256 for the output set's manifest included) starts as
  // soon as the model is final: beside its validation scores, the test
  // prediction and the report, which only read it. `selected` is declared
  // first, so an exception waits for the write (the future's destructor)
  // before the model goes; get() below rethrows a failed write.
  SelectedSvm selected;
  std::future<void> model_saved;
  select_and_train_svm(session.contexts(), train_features, svm_options, validation, std::cout,
                       selected, [&](svm::OvoModel& model) {
                         model.origin = origin;
                         model_saved = std::async(std::launch::async, [&model, &out] {
                           svm::save_model(model, out + "/" + kSvmFile);
                         });
                       });
  const svm::TrainStats& stats = selected.stats;
  const svm::OvoModel& svm_model = selected.model;
  svm_options = selected.options;
  std::printf("svm (%s%s%s): C %g, %lld support vectors, gamma %.3g, peak %.1f GiB\n",
              svm::solver_kind_name(selected.options.solver),
              svm_model.kernel_values.empty() ? "" : ", kernel ", svm_model.kernel_values.c_str(),
              selected.options.C,
              static_cast<long long>(stats.support_vectors), stats.gamma,
              double(stats.peak_reserved_bytes) / (1u << 30));
  std::cout << svm_phase_summary(stats) << std::flush;
  timings.emplace_back("svm train", stage.seconds());

  ReportData report =
      pipeline_report(session, record, synthetic, train_options, recipe, network);
  report.settings.insert(
      report.settings.end(),
      {{"weights sha256", weights_sha256},
       {"svm C", std::to_string(svm_options.C)},
       {"svm gamma", std::to_string(stats.gamma)},
       {"standardize", svm_options.standardize ? "yes" : "no"},
       {"svm kernel values",
        svm_model.kernel_values.empty() ? "float32 (libsvm)" : svm_model.kernel_values},
       {"svm chosen by",
        selected.search.empty() ? "the options given" : "search on the validation split"},
       {"validation rows", std::to_string(selected.validation_rows) + " (seed " +
                               std::to_string(validation.seed) + ")"}});
  add_backend_options_setting(session, report);
  for (auto& setting : svm_phase_settings(stats)) report.settings.push_back(std::move(setting));
  for (auto& setting : svm_search_settings(selected)) report.settings.push_back(std::move(setting));
  if (selected.validation_rows > 0) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f%%", 100.0 * selected.validation_accuracy);
    report.settings.push_back({"validation accuracy", text});
  }
  report.stage_timings = timings;
  EvaluationOutcome outcome = evaluate_and_report(
      context, *model, svm_model, data, test_features, trained.final_state.state, report, out,
      session.contexts(), settle_stages(&model_saved, release_run, [&] {
        selected.model = svm::OvoModel();  // its support vectors
      }));
  set->publish();
  return finish(outcome, backend_name, synthetic, data_dir);
}

}  // namespace

Command pipeline_command() {
  return {"pipeline",
          "cae pipeline [--backend B] [--data PATH] [--data-format F] [--unlabelled] [--out DIR] "
          "[training and SVM options]",
          "Run every stage: train, extract features, SVM, evaluate; print stage timings",
          declare_pipeline_options,
          run_pipeline,
          std::string(
              "Under mpirun, srun or torchrun (or with --rank and --world-size) every rank\n"
              "trains and encodes its share of the images on its own device and solves its\n"
              "share of the SVM's class pairs (or of the linear classifier's rows), and rank 0\n"
              "predicts and writes the folder: the same model and predictions as one process\n"
              "with --devices over as many devices (docs/distributed.md).\n\n") +
              kDataFormatsHelp};
}

}  // namespace cae::cli
