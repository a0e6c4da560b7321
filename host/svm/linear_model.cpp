#include "svm/linear_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <nlohmann/json.hpp>

#include "common/parallel.hpp"
#include "io/regular_file.hpp"
#include "io/safetensors.hpp"
#include "io/strict_json.hpp"
#include "svm/exact_text.hpp"
#include "svm/linear_scores.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

constexpr char kFormat[] = "cae-linear";
constexpr char kFormatVersion[] = "1";
// The "objective" metadata of each loss; files written before the squared
// hinge existed carry the first.
constexpr char kLogisticObjective[] =
    "multinomial logistic regression, L2: 1/2 |W|^2 + C sum cross-entropy (L-BFGS)";
constexpr char kSquaredHingeObjective[] =
    "one-vs-rest L2-SVM: 1/2 |W|^2 + C sum over rows and classes of squared hinge (L-BFGS)";
constexpr int64_t kLargestExactInteger = int64_t{1} << 24;  // of a float
constexpr int64_t kPredictBlockRows = 256;

}  // namespace

const char* linear_loss_description(LinearLoss loss) {
  return loss == LinearLoss::SquaredHinge ? "one-vs-rest L2-SVM (squared hinge)"
                                          : "multinomial logistic regression";
}

LinearLoss linear_loss_from_name(const std::string& name) {
  if (name == "logistic") return LinearLoss::Logistic;
  if (name == "squared-hinge") return LinearLoss::SquaredHinge;
  throw SvmError("the linear loss must be logistic or squared-hinge, got '" + name + "'");
}

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw SvmError(path + ": not a valid cae linear model: " + what);
}

const std::string& meta(const SafetensorsFile& file, const std::string& key) {
  const auto it = file.metadata.find(key);
  if (it == file.metadata.end()) fail(file.path, "no metadata '" + key + "'");
  return it->second;
}

double meta_number(const SafetensorsFile& file, const std::string& key) {
  const std::string& text = meta(file, key);
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value)) {
    fail(file.path, "metadata '" + key + "' is not a number: '" + text + "'");
  }
  return value;
}

// A non-negative whole number of metadata, at most `limit` (checked before
// converting: a double out of range would not convert to an integer).
int64_t count(const SafetensorsFile& file, const std::string& key, double limit) {
  const double value = meta_number(file, key);
  if (value < 0 || value > limit || value != std::floor(value)) {
    fail(file.path, "metadata '" + key + "' is not a count");
  }
  return static_cast<int64_t>(value);
}

const std::vector<float>& tensor(const SafetensorsFile& file, const std::string& name,
                                 const std::vector<int64_t>& shape) {
  const NamedTensor* found = file.find(name);
  if (!found) fail(file.path, "no tensor '" + name + "'");
  if (found->shape != shape) fail(file.path, "tensor '" + name + "' has an unexpected shape");
  return found->data;
}

}  // namespace

void LinearModel::validate(const std::string& where) const {
  const size_t k = classes.size();
  if (k < 2) throw SvmError(where + ": a classifier needs at least two classes");
  if (!std::is_sorted(classes.begin(), classes.end()) ||
      std::adjacent_find(classes.begin(), classes.end()) != classes.end()) {
    throw SvmError(where + ": class labels are not distinct and ascending");
  }
  if (dim < 1 || weights.size() != k * static_cast<size_t>(dim) || bias.size() != k) {
    throw SvmError(where + ": weights or bias do not match " + std::to_string(k) + " classes x " +
                   std::to_string(dim) + " dimensions");
  }
  if (!standardizer.empty() && standardizer.dim() != dim) {
    throw SvmError(where + ": the standardizer's dimension is not the model's");
  }
  for (const float w : weights) {
    if (!std::isfinite(w)) throw SvmError(where + ": a weight is not finite");
  }
  for (const float b : bias) {
    if (!std::isfinite(b)) throw SvmError(where + ": a bias is not finite");
  }
  if (!(C > 0.0) || !std::isfinite(C)) throw SvmError(where + ": C is not a positive number");
}

std::vector<int32_t> predict_linear(const LinearModel& model, const FeatureSet& features,
                                    int threads) {
  features.check("linear classifier input", false);
  if (features.dim != model.dim) {
    throw SvmError("linear classifier input has dimension " + std::to_string(features.dim) +
                   " but the model expects " + std::to_string(model.dim));
  }
  const int64_t k = model.class_count();
  const FoldedWeights folded = fold_standardizer(
      std::vector<double>(model.weights.begin(), model.weights.end()),
      std::vector<double>(model.bias.begin(), model.bias.end()), model.standardizer, k, model.dim);
  std::vector<int32_t> labels(static_cast<size_t>(features.rows));
  const int64_t blocks = (features.rows + kPredictBlockRows - 1) / kPredictBlockRows;
  single_threaded_blas();
  parallel_chunks(resolve_thread_count(threads), blocks, [&](int64_t begin, int64_t end) {
    std::vector<float> scores;
    for (int64_t block = begin; block < end; ++block) {
      const int64_t first = block * kPredictBlockRows;
      const int64_t n = std::min(kPredictBlockRows, features.rows - first);
      scores_of(folded, features.row(first), n, scores);
      for (int64_t i = 0; i < n; ++i) {
        const float* row = scores.data() + i * k;
        labels[static_cast<size_t>(first + i)] =
            model.classes[static_cast<size_t>(std::max_element(row, row + k) - row)];
      }
    }
  });
  return labels;
}

void save_linear_model(const LinearModel& model, const std::string& path,
                       const std::map<std::string, std::string>& provenance) {
  model.validate("cannot save the linear model");
  const int64_t k = model.class_count();
  std::vector<float> classes;
  for (const int32_t label : model.classes) {
    if (label < -kLargestExactInteger || label > kLargestExactInteger) {
      throw SvmError("cannot save the linear model: label " + std::to_string(label) +
                     " is too large to store exactly");
    }
    classes.push_back(static_cast<float>(label));
  }
  std::vector<NamedTensor> tensors{{"classes", {k}, std::move(classes)},
                                   {"weights", {k, model.dim}, model.weights},
                                   {"bias", {k}, model.bias}};
  if (!model.standardizer.empty()) {
    tensors.push_back({"standardizer_mean", {model.dim}, model.standardizer.mean()});
    tensors.push_back({"standardizer_scale", {model.dim}, model.standardizer.scale()});
  }
  SafetensorsMetadata metadata(provenance.begin(), provenance.end());
  metadata["format"] = kFormat;
  metadata["format_version"] = kFormatVersion;
  metadata["objective"] =
      model.objective == LinearLoss::SquaredHinge ? kSquaredHingeObjective : kLogisticObjective;
  metadata["C"] = exact_text(model.C);
  metadata["dim"] = std::to_string(model.dim);
  metadata["training_rows"] = std::to_string(model.training_rows);
  metadata["iterations"] = std::to_string(model.iterations);
  metadata["converged"] = model.converged ? "yes" : "no";
  metadata["loss"] = exact_text(model.loss);
  write_feature_origin(model.origin, metadata);
  write_safetensors(path, tensors, metadata);
}

LinearModel load_linear_model(const std::string& path) {
  const SafetensorsFile file = read_safetensors(path);
  if (meta(file, "format") != kFormat) fail(path, "format is '" + meta(file, "format") + "'");
  if (meta(file, "format_version") != kFormatVersion) {
    fail(path, "unsupported format_version '" + meta(file, "format_version") + "'");
  }
  LinearModel model;
  const double dim = meta_number(file, "dim");
  if (dim < 1 || dim != std::floor(dim) || dim > 1e9) fail(path, "bad dim");
  model.dim = static_cast<int64_t>(dim);
  const std::string& objective = meta(file, "objective");
  if (objective == kLogisticObjective) {
    model.objective = LinearLoss::Logistic;
  } else if (objective == kSquaredHingeObjective) {
    model.objective = LinearLoss::SquaredHinge;
  } else {
    fail(path, "unknown objective '" + objective + "'");
  }
  model.C = meta_number(file, "C");
  model.loss = meta_number(file, "loss");
  model.training_rows = count(file, "training_rows", 1e15);
  model.iterations = static_cast<int>(count(file, "iterations", 1e9));
  model.converged = meta(file, "converged") == "yes";
  model.origin = read_feature_origin(file.metadata, path + ": not a valid cae linear model");
  const NamedTensor* classes = file.find("classes");
  if (!classes || classes->shape.size() != 1) fail(path, "no tensor 'classes' of rank 1");
  const int64_t k = classes->shape[0];
  for (const float label : classes->data) {
    if (label != std::floor(label) || std::fabs(label) > kLargestExactInteger) {
      fail(path, "a class label is not an integer");
    }
    model.classes.push_back(static_cast<int32_t>(label));
  }
  model.weights = tensor(file, "weights", {k, model.dim});
  model.bias = tensor(file, "bias", {k});
  if (file.find("standardizer_mean") || file.find("standardizer_scale")) {
    try {
      model.standardizer = Standardizer(tensor(file, "standardizer_mean", {model.dim}),
                                        tensor(file, "standardizer_scale", {model.dim}));
    } catch (const SvmError& error) {
      fail(path, error.what());
    }
  }
  model.validate(path + ": not a valid cae linear model");
  return model;
}

bool is_linear_model_file(const std::string& path) {
  // Only the header: an SVM model's support vectors can be gigabytes, and its
  // own loader reads them next.
  std::string error;
  const UniqueFile file = open_regular_file(path, error);  // a FIFO must not block here
  if (!file) return false;  // the loader that comes next says what is wrong
  unsigned char size_bytes[8] = {};
  if (std::fread(size_bytes, 1, 8, file.get()) != 8) return false;
  uint64_t size = 0;
  for (int b = 7; b >= 0; --b) size = (size << 8) | size_bytes[b];
  if (size == 0 || size > (uint64_t{100} << 20)) return false;
  std::string header(static_cast<size_t>(size), '\0');
  if (std::fread(header.data(), 1, header.size(), file.get()) != header.size()) return false;
  nlohmann::json parsed;
  try {
    parsed = parse_json_text(header);  // depth-bounded, like every JSON cae reads
  } catch (const JsonRefused&) {
    return false;  // the loader that comes next says what is wrong
  }
  if (!parsed.is_object()) return false;
  const auto metadata = parsed.find("__metadata__");
  if (metadata == parsed.end() || !metadata->is_object()) return false;
  const auto format = metadata->find("format");
  return format != metadata->end() && format->is_string() && *format == kFormat;
}

}  // namespace cae::svm
