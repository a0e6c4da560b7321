#include "evaluation.hpp"

#include <algorithm>
#include <iostream>

#include "data/batcher.hpp"
#include "io/directory.hpp"
#include "report/confusion_csv.hpp"
#include "report/confusion_heatmap.hpp"
#include "report/figure.hpp"
#include "report/loss_curve.hpp"
#include "report/metrics.hpp"
#include "report/predictions_csv.hpp"
#include "report/reconstruction_grid.hpp"
#include "report/stopwatch.hpp"
#include "svm/predictor.hpp"

namespace cae::cli {
namespace {

// One test image per class (the first of each; of the first kMaxPictured
// classes, so a 100-class grid stays readable), reconstructed by the model.
void write_reconstructions(Context& context, nn::Autoencoder& model, const DataSplits& data,
                           const std::string& path) {
  constexpr size_t kMaxPictured = 10;
  const ImageSet& test = data.test;
  std::vector<size_t> picks;
  for (size_t c = 0; c < data.class_names.size() && c < kMaxPictured; ++c) {
    for (size_t i = 0; i < test.size(); ++i) {
      if (test.labels[i] == c) {
        picks.push_back(i);
        break;
      }
    }
  }
  // The figure draws grey or RGB images; other channel counts have no picture.
  const int channels = model.network().image_channels();
  if (picks.empty() || (channels != 1 && channels != 3)) return;
  const int64_t n = int64_t(picks.size());
  const size_t floats = test.image_bytes();
  std::vector<float> originals(picks.size() * floats);
  fill_batch(test, picks, originals.data());
  // A model with an input transform reconstructs transformed images: its
  // output goes back through the inverse (with each image's own contrast
  // scale) to be drawn next to the original.
  std::vector<float> transformed = originals;
  std::vector<ImageScale> scales;
  const InputTransform* transform = model.input_transform();
  if (transform) transform->apply(transformed.data(), picks.size(), &scales);
  Tensor input = context.alloc({n, test.channels, test.side, test.side});
  Tensor output = context.alloc(input.dims());
  input.upload(transformed);
  model.reconstruct(input, output);
  std::vector<float> reconstructed = output.download();
  if (transform) transform->restore(reconstructed.data(), picks.size(), scales);
  std::vector<ReconstructionSample> samples;
  for (size_t k = 0; k < picks.size(); ++k) {
    const size_t label = test.labels[picks[k]];
    samples.push_back({label < data.class_names.size() ? data.class_names[label] : std::to_string(label),
                       originals.data() + k * floats, reconstructed.data() + k * floats});
  }
  ReconstructionGridOptions grid;
  grid.channels = test.channels;
  grid.height = grid.width = test.side;
  grid.scale = test.side >= 64 ? 1 : 3;  // large images are shown at their own size
  write_reconstruction_grid_png(path, samples, grid);
}

}  // namespace

svm::FeatureSet to_feature_set(std::vector<float> features, int64_t dim, const ImageSet& images) {
  svm::FeatureSet set;
  set.rows = int64_t(images.size());
  set.dim = dim;
  set.values = std::move(features);
  set.labels.assign(images.labels.begin(), images.labels.end());
  return set;
}

std::vector<std::string> report_files() {
  return {"confusion.csv",   "confusion.png",          "confusion.svg",
          "predictions.csv", "reconstructions.png",    "reconstructions.svg",
          "loss_curve.png",  "loss_curve.svg",         "loss_curve.csv",
          "report.html",     "report.json",            kPerClassAccuracyPng,
          svg_path_for(kPerClassAccuracyPng).string()};
}

EvaluationOutcome evaluate_and_report(Context& context, nn::Autoencoder& model,
                                      const svm::OvoModel& svm_model, const DataSplits& data,
                                      const svm::FeatureSet& test_features,
                                      const nn::TrainingState& training, ReportData report,
                                      const std::string& out_dir,
                                      const std::vector<Context*>& predict_contexts,
                                      const BeforePage& before_page) {
  const std::vector<Context*> contexts =
      predict_contexts.empty() ? std::vector<Context*>{&context} : predict_contexts;
  return evaluate_and_report(
      context, model,
      [&](const svm::FeatureSet& rows) { return svm::predict(contexts, svm_model, rows).labels; },
      "svm predict", data, test_features, training, std::move(report), out_dir, before_page);
}

EvaluationOutcome evaluate_and_report(Context& context, nn::Autoencoder& model,
                                      const Classify& classify, const std::string& stage_name,
                                      const DataSplits& data,
                                      const svm::FeatureSet& test_features,
                                      const nn::TrainingState& training, ReportData report,
                                      const std::string& out_dir, const BeforePage& before_page) {
  ensure_directory(out_dir);
  Stopwatch stage;
  const std::vector<int32_t> labels = classify(test_features);
  report.stage_timings.emplace_back(stage_name, stage.seconds());

  stage.restart();
  std::vector<int> truth(test_features.labels.begin(), test_features.labels.end());
  std::vector<int> predicted(labels.begin(), labels.end());
  const int classes = int(data.class_names.size());
  ConfusionMatrix confusion = ConfusionMatrix::from_labels(truth, predicted, classes);
  write_confusion_csv(out_dir + "/confusion.csv", confusion, data.class_names);
  HeatmapOptions heatmap;
  heatmap.title = "confusion (rows: true class)";
  write_confusion_heatmap_png(out_dir + "/confusion.png", confusion, data.class_names, heatmap);
  write_predictions_csv(out_dir + "/predictions.csv", truth, predicted, data.class_names);
  write_reconstructions(context, model, data, out_dir + "/reconstructions.png");
  if (!training.train_losses.empty()) {
    // The first epoch's loss is often 10-100x the last: a log axis keeps the tail readable.
    LossCurveOptions curve;
    auto [low, high] = std::minmax_element(training.train_losses.begin(), training.train_losses.end());
    curve.log_scale = *low > 0 && *high / *low > 10.0;
    write_loss_curve_png(out_dir + "/loss_curve.png",
                         train_and_test_series(training.train_losses, training.test_mses), curve);
    report.loss_curve_png = "loss_curve.png";
  }
  report.accuracy = confusion.accuracy();
  report.per_class_accuracy = confusion.per_class_accuracy();
  for (int c = 0; c < classes; ++c) report.per_class_support.push_back(confusion.support(c));
  report.class_names = data.class_names;
  report.confusion_png = "confusion.png";
  report.confusion_csv = "confusion.csv";
  report.predictions_csv = "predictions.csv";
  report.reconstruction_png = "reconstructions.png";
  report.stage_timings.emplace_back("report", stage.seconds());
  if (before_page) before_page(report.stage_timings);
  write_html_report(out_dir + "/report.html", report);
  return {report.accuracy, out_dir + "/report.html", report.stage_timings};
}

}  // namespace cae::cli
