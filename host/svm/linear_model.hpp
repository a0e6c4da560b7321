// A linear classifier for training sets the kernel SVM cannot hold: one
// weight vector per class (multinomial logistic regression, or one-vs-rest
// L2-SVMs), so its memory is the features (rows x dim) plus classes x dim,
// where the one-vs-one kernel SVM's grows with rows^2 (class-pair kernels).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "svm/feature_origin.hpp"
#include "svm/features.hpp"

namespace cae::svm {

// What the weights minimise, besides 1/2 |W|^2 (svm/linear_trainer.hpp):
//   Logistic      C sum_i -log softmax(s_i)[y_i]  (multinomial logistic regression)
//   SquaredHinge  C sum_i sum_c max(0, 1 - t_ic s_ic)^2, t_ic = +1 for c = y_i, else -1
//                 (one L2-SVM per class against the rest, as Coates, Lee & Ng 2011)
// Either way the highest score wins.
enum class LinearLoss { Logistic, SquaredHinge };

// What the report says the classifier is.
const char* linear_loss_description(LinearLoss loss);
// "logistic" or "squared-hinge" (the option's words); throws SvmError naming
// them for anything else.
LinearLoss linear_loss_from_name(const std::string& name);

struct LinearModel {
  std::vector<int32_t> classes;  // labels, ascending; class index = position
  int64_t dim = 0;
  Standardizer standardizer;  // empty: features are used as they are
  // score_c(x) = weights[c] . standardize(x) + bias[c]; the highest score wins
  // (the lowest class index on ties).
  std::vector<float> weights;  // [classes, dim]
  std::vector<float> bias;     // [classes]
  // How it was trained (stored with the model).
  LinearLoss objective = LinearLoss::Logistic;
  double C = 1.0;  // objective: 1/2 |W|^2 + C * sum of the rows' losses
  int64_t training_rows = 0;
  int iterations = 0;
  bool converged = false;
  double loss = 0.0;  // mean loss (of `objective`) on the training rows at the end
  // What produced the features it was trained on, checked by `cae evaluate`
  // as the kernel SVM's is (svm/feature_origin.hpp).
  FeatureOrigin origin;

  int32_t class_count() const { return static_cast<int32_t>(classes.size()); }
  // Throws SvmError("<where>: <first inconsistency>").
  void validate(const std::string& where) const;
};

// Labels of `features`' rows (raw: the model's standardizer is applied
// here). Throws SvmError when the dimension is not the model's.
std::vector<int32_t> predict_linear(const LinearModel& model, const FeatureSet& features,
                                    int threads = 0);

// The model on disk: safetensors, metadata format "cae-linear", format_version
// "1", objective, C, dim, training_rows, iterations, converged, loss, the
// features' origin (svm/feature_origin.hpp) and what the caller adds in
// `provenance` (e.g. how C was chosen); tensors
// classes [k], weights [k, dim], bias [k], standardizer_mean/scale [dim].
void save_linear_model(const LinearModel& model, const std::string& path,
                       const std::map<std::string, std::string>& provenance = {});
LinearModel load_linear_model(const std::string& path);

// Whether the file at `path` is a linear model (the "format" metadata of its
// safetensors header); false for anything else, an SVM model included.
bool is_linear_model_file(const std::string& path);

}  // namespace cae::svm
