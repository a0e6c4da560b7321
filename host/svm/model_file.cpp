#include "svm/model_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "common/parallel.hpp"
#include "io/safetensors.hpp"
#include "svm/exact_text.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

constexpr char kFormat[] = "cae-svm-ovo";
constexpr char kFormatVersion[] = "1";
constexpr int64_t kLargestExactInteger = int64_t{1} << 24;  // of a float

// --- writing ---

template <class Integer>
std::vector<float> integers_as_floats(const std::vector<Integer>& values, const std::string& what) {
  std::vector<float> out;
  out.reserve(values.size());
  for (Integer value : values) {
    if (value < -kLargestExactInteger || value > kLargestExactInteger) {
      throw SvmError("cannot save the SVM model: " + what + " value " + std::to_string(value) +
                     " is too large to store exactly");
    }
    out.push_back(static_cast<float>(value));
  }
  return out;
}

// The model's tensors in file order, as views: what the file needs in
// another form is built and kept here, the rest (the support vectors, a
// gigabyte at 38,000 x 8,192) is written from the model itself.
class ModelTensors {
 public:
  template <class Values>  // a std::vector<float> or an UninitializedBuffer<float>
  void view(std::string name, std::vector<int64_t> shape, const Values& values) {
    in_order_.push_back({std::move(name), std::move(shape), values.data(), values.size()});
  }
  void own(std::string name, std::vector<int64_t> shape, std::vector<float> values) {
    built_.push_back(std::move(values));  // a deque: earlier views stay valid
    view(std::move(name), std::move(shape), built_.back());
  }
  const std::vector<TensorView>& in_order() const { return in_order_; }

 private:
  std::deque<std::vector<float>> built_;
  std::vector<TensorView> in_order_;
};

ModelTensors model_tensors(const OvoModel& model) {
  const int64_t pair_count = static_cast<int64_t>(model.pairs.size());
  std::vector<float> pair_classes, rho, offsets{0.0f};
  std::vector<int64_t> support;
  std::vector<float> coef;
  for (const PairDecision& decision : model.pairs) {
    pair_classes.push_back(static_cast<float>(decision.pair.first));
    pair_classes.push_back(static_cast<float>(decision.pair.second));
    rho.push_back(decision.rho);
    support.insert(support.end(), decision.support.begin(), decision.support.end());
    coef.insert(coef.end(), decision.coef.begin(), decision.coef.end());
    offsets.push_back(static_cast<float>(support.size()));
  }
  const int64_t total = static_cast<int64_t>(support.size());
  integers_as_floats(std::vector<int64_t>{total}, "support list length");
  ModelTensors tensors;
  tensors.own("classes", {model.class_count()}, integers_as_floats(model.classes, "label"));
  tensors.view("sv_rows", {model.sv_count, model.dim}, model.sv_rows);
  tensors.own("sv_class", {model.sv_count}, integers_as_floats(model.sv_class, "class"));
  tensors.own("sv_source", {model.sv_count}, integers_as_floats(model.sv_source, "training row"));
  tensors.own("pair_classes", {pair_count, 2}, std::move(pair_classes));
  tensors.own("pair_rho", {pair_count}, std::move(rho));
  tensors.own("pair_offsets", {pair_count + 1}, std::move(offsets));
  tensors.own("pair_support", {total}, integers_as_floats(support, "support index"));
  tensors.own("pair_coef", {total}, std::move(coef));
  if (!model.standardizer.empty()) {
    tensors.view("standardizer_mean", {model.dim}, model.standardizer.mean());
    tensors.view("standardizer_scale", {model.dim}, model.standardizer.scale());
  }
  return tensors;
}

// --- reading ---

class ModelReader {
 public:
  explicit ModelReader(SafetensorsFile file) : file_(std::move(file)) {}

  // Moves a large tensor out instead of copying it (the support vectors can
  // be gigabytes); the reader no longer has it afterwards.
  std::vector<float> take(const std::string& name, std::vector<int64_t> shape) {
    tensor(name, std::move(shape));
    for (NamedTensor& entry : file_.tensors) {
      if (entry.name == name) return std::move(entry.data);
    }
    return {};
  }

  const SafetensorsMetadata& metadata() const { return file_.metadata; }

  [[noreturn]] void fail(const std::string& what) const {
    throw SvmError(file_.path + ": not a valid cae SVM model: " + what);
  }

  std::string meta(const std::string& key) const {
    const auto it = file_.metadata.find(key);
    if (it == file_.metadata.end()) fail("no metadata '" + key + "'");
    return it->second;
  }

  // "" when the (optional) key is absent.
  std::string optional_meta(const std::string& key) const {
    const auto it = file_.metadata.find(key);
    return it == file_.metadata.end() ? std::string() : it->second;
  }

  double meta_number(const std::string& key) const {
    const std::string text = meta(key);
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value)) {
      fail("metadata '" + key + "' is not a number: '" + text + "'");
    }
    return value;
  }

  // The tensor `name`, checked to have `shape` (-1: any size).
  const std::vector<float>& tensor(const std::string& name, std::vector<int64_t> shape) const {
    const NamedTensor* found = file_.find(name);
    if (!found) fail("no tensor '" + name + "'");
    bool matches = found->shape.size() == shape.size();
    for (size_t d = 0; matches && d < shape.size(); ++d) {
      matches = shape[d] < 0 || shape[d] == found->shape[d];
    }
    if (!matches) fail("tensor '" + name + "' has an unexpected shape");
    return found->data;
  }

  int64_t length(const std::string& name) const {
    const NamedTensor* found = file_.find(name);
    if (!found || found->shape.empty()) fail("no tensor '" + name + "' of rank >= 1");
    return found->shape[0];
  }

  bool has(const std::string& name) const { return file_.find(name) != nullptr; }

  template <class Integer>
  std::vector<Integer> integers(const std::string& name, std::vector<int64_t> shape) const {
    std::vector<Integer> out;
    for (float value : tensor(name, std::move(shape))) {
      if (value != std::floor(value) || std::fabs(value) > kLargestExactInteger) {
        fail("tensor '" + name + "' holds a value that is not an integer");
      }
      out.push_back(static_cast<Integer>(value));
    }
    return out;
  }

 private:
  SafetensorsFile file_;
};

OvoModel model_from(SafetensorsFile file) {
  const std::string path = file.path;
  ModelReader reader(std::move(file));
  if (reader.meta("format") != kFormat) reader.fail("format is '" + reader.meta("format") + "'");
  if (reader.meta("format_version") != kFormatVersion) {
    reader.fail("unsupported format_version '" + reader.meta("format_version") + "'");
  }
  OvoModel model;
  try {
    model.kernel = parse_kernel_kind(reader.meta("kernel"));
  } catch (const SvmError& error) {
    reader.fail(error.what());
  }
  model.gamma = static_cast<float>(reader.meta_number("gamma"));
  model.C = reader.meta_number("C");
  if (!(model.C > 0)) reader.fail("C is not a positive number");
  const double dim = reader.meta_number("dim");
  if (dim < 1 || dim != std::floor(dim) || dim > 1e9) reader.fail("bad dim");
  model.dim = static_cast<int64_t>(dim);

  const int64_t class_count = reader.length("classes");
  // One-vs-one needs a pair per two classes: bound them before counting pairs.
  if (class_count > kMaxModelClasses) {
    reader.fail(std::to_string(class_count) + " classes (at most " +
                std::to_string(kMaxModelClasses) + ")");
  }
  model.classes = reader.integers<int32_t>("classes", {class_count});
  model.sv_count = reader.length("sv_rows");
  {
    // Copied on every core into the model's own uninitialised buffer (the
    // file's tensor is freed at the end of the block).
    const std::vector<float> rows = reader.take("sv_rows", {model.sv_count, model.dim});
    model.sv_rows.resize(rows.size());
    const int64_t per_row = model.dim;
    parallel_chunks(resolve_thread_count(0), model.sv_count, [&](int64_t begin, int64_t end) {
      std::copy(rows.begin() + begin * per_row, rows.begin() + end * per_row,
                model.sv_rows.begin() + begin * per_row);
    });
  }
  model.sv_class = reader.integers<int32_t>("sv_class", {model.sv_count});
  model.sv_source = reader.integers<int64_t>("sv_source", {model.sv_count});

  const int64_t pair_count = reader.length("pair_classes");
  const auto pair_classes = reader.integers<int32_t>("pair_classes", {pair_count, 2});
  const auto& rho = reader.tensor("pair_rho", {pair_count});
  const auto offsets = reader.integers<int64_t>("pair_offsets", {pair_count + 1});
  const int64_t total = reader.length("pair_support");
  const auto support = reader.integers<int32_t>("pair_support", {total});
  const auto& coef = reader.tensor("pair_coef", {total});
  for (int64_t p = 0; p < pair_count; ++p) {
    const int64_t begin = offsets[static_cast<size_t>(p)];
    const int64_t end = offsets[static_cast<size_t>(p + 1)];
    if (begin < 0 || begin > end || end > total || (p == 0 && begin != 0)) {
      reader.fail("pair_offsets are not ascending within the support list");
    }
    PairDecision decision;
    decision.pair = {pair_classes[static_cast<size_t>(2 * p)],
                     pair_classes[static_cast<size_t>(2 * p + 1)]};
    decision.support.assign(support.begin() + begin, support.begin() + end);
    decision.coef.assign(coef.begin() + begin, coef.begin() + end);
    decision.rho = rho[static_cast<size_t>(p)];
    model.pairs.push_back(std::move(decision));
  }
  if (offsets.back() != total) reader.fail("pair_offsets do not cover the support list");

  model.origin = read_feature_origin(reader.metadata(), path + ": not a valid cae SVM model");
  model.kernel_values = reader.optional_meta("kernel_values");
  if (!model.kernel_values.empty() && model.kernel_values != "float32" &&
      model.kernel_values != "unorm16") {
    reader.fail("metadata 'kernel_values' is '" + model.kernel_values +
                "', not float32 or unorm16");
  }
  if (reader.has("standardizer_mean") || reader.has("standardizer_scale")) {
    try {
      model.standardizer = Standardizer(reader.tensor("standardizer_mean", {model.dim}),
                                        reader.tensor("standardizer_scale", {model.dim}));
    } catch (const SvmError& error) {
      reader.fail(error.what());
    }
  }
  model.validate(path + ": not a valid cae SVM model");
  return model;
}

}  // namespace

void save_model(const OvoModel& model, const std::string& path) {
  model.validate("cannot save the SVM model");
  SafetensorsMetadata metadata{{"format", kFormat},
                               {"format_version", kFormatVersion},
                               {"kernel", kernel_kind_name(model.kernel)},
                               {"gamma", exact_text(model.gamma)},
                               {"C", exact_text(model.C)},
                               {"dim", std::to_string(model.dim)}};
  write_feature_origin(model.origin, metadata);
  if (!model.kernel_values.empty()) metadata["kernel_values"] = model.kernel_values;
  const ModelTensors tensors = model_tensors(model);
  write_safetensors(path, tensors.in_order(), metadata);
}

OvoModel load_model(const std::string& path) { return model_from(read_safetensors(path)); }

OvoModel parse_model(const std::string& bytes, const std::string& path) {
  return model_from(parse_safetensors(bytes, path));
}

}  // namespace cae::svm
