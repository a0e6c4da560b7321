// The evaluation stage shared by `cae evaluate` and `cae pipeline`: predict
// the test set, then write the metrics, pictures and report.html.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "data/data_source.hpp"
#include "nn/autoencoder.hpp"
#include "nn/checkpoint.hpp"
#include "report/html_report.hpp"
#include "svm/ovo_model.hpp"
#include "svm/features.hpp"

namespace cae::cli {

// Features of a whole split (rows of `dim` floats) as the SVM stage wants them.
svm::FeatureSet to_feature_set(std::vector<float> features, int64_t dim, const ImageSet& images);

// Called with the stage timings just before report.html and report.json are
// written, so that stages still running then (a file written beside the
// evaluation) can be waited for and recorded in them.
using BeforePage = std::function<void(StageTimings& timings)>;

struct EvaluationOutcome {
  double accuracy = 0;
  std::string report_path;
  StageTimings timings;  // the given stages plus prediction and report
};

// Every file evaluate_and_report may write into out_dir (figures with their
// SVG, report.json and the per-class chart that write_html_report adds), for
// the checks made before any work (claim_output_directory).
std::vector<std::string> report_files();

// Writes confusion.csv, confusion.png, predictions.csv, reconstructions.png,
// loss_curve.png and report.html into out_dir. `report` carries the settings,
// backend, device and stage timings already known; prediction and report
// timings are added to it. The SVM predicts on `predict_contexts` (split
// by rows, one per device), or on `context` alone when that is empty.
EvaluationOutcome evaluate_and_report(Context& context, nn::Autoencoder& model,
                                      const svm::OvoModel& svm_model, const DataSplits& data,
                                      const svm::FeatureSet& test_features,
                                      const nn::TrainingState& training, ReportData report,
                                      const std::string& out_dir,
                                      const std::vector<Context*>& predict_contexts = {},
                                      const BeforePage& before_page = {});

// The same with any classifier: `classify` labels the test rows (e.g. the
// linear classifier, svm/linear_model.hpp); its time is the stage `stage`.
using Classify = std::function<std::vector<int32_t>(const svm::FeatureSet& rows)>;
EvaluationOutcome evaluate_and_report(Context& context, nn::Autoencoder& model,
                                      const Classify& classify, const std::string& stage,
                                      const DataSplits& data,
                                      const svm::FeatureSet& test_features,
                                      const nn::TrainingState& training, ReportData report,
                                      const std::string& out_dir,
                                      const BeforePage& before_page = {});

}  // namespace cae::cli
