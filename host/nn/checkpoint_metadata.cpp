#include "checkpoint_metadata.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "data/augment.hpp"
#include "io/io_error.hpp"
#include "io/strict_json.hpp"
#include "nn/trainer.hpp"
#include "nn/latent_sparsity.hpp"
#include "nn/training_recipe_names.hpp"

namespace cae::nn {

namespace {

using Json = nlohmann::json;

constexpr const char* kCheckpointFormat = kCheckpointFormatPlain;

std::string to_text(double v) { return Json(v).dump(); }

class MetadataReader {
 public:
  MetadataReader(const SafetensorsMetadata& metadata, const std::string& path)
      : metadata_(metadata), path_(path) {}

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    throw std::runtime_error(path_ + ": checkpoint metadata '" + field + "' " + problem);
  }

  const std::string* find(const std::string& key) const {
    const auto it = metadata_.find(key);
    return it == metadata_.end() ? nullptr : &it->second;
  }

  std::string text(const std::string& key, const std::string& fallback) const {
    const std::string* value = find(key);
    return value ? *value : fallback;
  }

  // Whole decimal digits only: no sign for unsigned fields, no "12abc", no wrap.
  template <class T>
  T integer(const std::string& key, T fallback, T low, T high) const {
    const std::string* value = find(key);
    if (!value) return fallback;
    const std::string& t = *value;
    const bool negative = !t.empty() && t[0] == '-';
    const size_t digits_at = negative ? 1 : 0;
    bool digits = t.size() > digits_at && t.size() - digits_at <= 20;
    for (size_t i = digits_at; digits && i < t.size(); ++i) digits = t[i] >= '0' && t[i] <= '9';
    if (!digits) fail(key, "is '" + t + "', not a whole number");
    errno = 0;
    char* end = nullptr;
    if (negative) {
      const long long parsed = std::strtoll(t.c_str(), &end, 10);
      if (errno != 0 || parsed < static_cast<long long>(low))
        fail(key, "is " + t + ", below " + std::to_string(low));
      return static_cast<T>(parsed);
    }
    const unsigned long long parsed = std::strtoull(t.c_str(), &end, 10);
    if (errno != 0 || parsed > static_cast<unsigned long long>(high)) {
      fail(key, "is " + t + ", above " + std::to_string(high));
    }
    if (static_cast<long double>(parsed) < static_cast<long double>(low)) {
      fail(key, "is " + t + ", below " + std::to_string(low));
    }
    return static_cast<T>(parsed);
  }

  double real(const std::string& key, double fallback, double low, double high) const {
    const std::string* value = find(key);
    if (!value) return fallback;
    char* end = nullptr;
    const double parsed = std::strtod(value->c_str(), &end);
    if (value->empty() || *end != '\0') fail(key, "is '" + *value + "', not a number");
    check_range(key, parsed, low, high);
    return parsed;
  }

  void check_range(const std::string& field, double value, double low, double high) const {
    if (!(value >= low && value <= high)) {
      fail(field, "is " + to_text(value) + ", not a finite number in [" + to_text(low) + ", " +
                      to_text(high) + "]");
    }
  }

  Json json(const std::string& key, const std::string& fallback) const {
    try {
      return parse_json_text(text(key, fallback));
    } catch (const JsonRefused& refused) {
      fail(key, refused.repeated_key ? std::string(refused.what())
                                     : "is not valid JSON: " + std::string(refused.what()));
    }
  }

 private:
  const SafetensorsMetadata& metadata_;
  const std::string& path_;
};

float optimizer_number(const MetadataReader& reader, const Json& settings, const char* key,
                       float fallback, double low, double high) {
  const std::string field = std::string("optimizer.") + key;
  const auto it = settings.find(key);
  if (it == settings.end()) return fallback;
  if (!it->is_number()) reader.fail(field, "is not a number");
  const double value = it->get<double>();
  reader.check_range(field, value, low, high);
  return static_cast<float>(value);
}

OptimizerSettings parse_optimizer(const MetadataReader& reader) {
  const Json settings = reader.json("optimizer", "{}");
  if (!settings.is_object()) reader.fail("optimizer", "is not a JSON object");
  OptimizerSettings o;
  const auto kind = settings.find("kind");
  if (kind != settings.end()) {
    if (!kind->is_string() || (*kind != "adam" && *kind != "sgd")) {
      reader.fail("optimizer.kind", "is " + json_excerpt(*kind) + ", not \"adam\" or \"sgd\"");
    }
    o.kind = kind->get<std::string>();
  }
  o.learning_rate = optimizer_number(reader, settings, "learning_rate", 1e-3f, kMinLearningRate,
                                     kMaxLearningRate);
  o.momentum = optimizer_number(reader, settings, "momentum", 0.0f, 0.0, kMaxMomentum);
  o.beta1 = optimizer_number(reader, settings, "beta1", 0.9f, 0.0, 0.9999999);
  o.beta2 = optimizer_number(reader, settings, "beta2", 0.999f, 0.0, 0.9999999);
  o.epsilon = optimizer_number(reader, settings, "epsilon", 1e-8f, 1e-30, 1.0);
  o.weight_decay = optimizer_number(reader, settings, "weight_decay", 0.0f, 0.0, kMaxWeightDecay);
  return o;
}

std::vector<double> parse_losses(const MetadataReader& reader, const char* key) {
  const Json values = reader.json(key, "[]");
  if (!values.is_array()) reader.fail(key, "is not a JSON array");
  std::vector<double> losses;
  for (const Json& value : values) {
    if (!value.is_number()) reader.fail(key, "holds " + json_excerpt(value) + ", not a number");
    const double loss = value.get<double>();
    reader.check_range(key, loss, 0.0, std::numeric_limits<double>::max());
    losses.push_back(loss);
  }
  return losses;
}

// {"name": "value", ...}; files from before backend options have none.
std::vector<std::pair<std::string, std::string>> parse_backend_options(
    const MetadataReader& reader) {
  const char* key = "backend_options";
  const Json values = reader.json(key, "{}");
  if (!values.is_object()) reader.fail(key, "is not a JSON object");
  std::vector<std::pair<std::string, std::string>> options;
  for (const auto& [name, value] : values.items()) {
    if (!value.is_string()) reader.fail(key, "holds " + json_excerpt(value) + " for " + name + ", not a string");
    options.emplace_back(name, value.get<std::string>());
  }
  return options;
}

// The data the run trained on (data/data_record.hpp); files from before it
// was recorded have none.
std::optional<DataRecord> parse_data_record(const MetadataReader& reader) {
  if (!reader.find("data")) return std::nullopt;
  const Json doc = reader.json("data", "{}");
  if (!doc.is_object()) reader.fail("data", "is not a JSON object");
  try {
    return data_record_from_json(doc);
  } catch (const std::invalid_argument& error) {
    reader.fail("data", std::string("field ") + error.what());
  }
}

}  // namespace

SafetensorsMetadata training_state_metadata(const TrainingState& s) {
  SafetensorsMetadata meta;
  meta["format"] = kCheckpointFormat;  // the architecture: nn/model_metadata.cpp
  meta["epoch"] = std::to_string(s.epochs_done);
  meta["epochs_planned"] = std::to_string(s.epochs_planned);
  meta["batches_done"] = std::to_string(s.batches_done);
  meta["partial_loss_sum"] = to_text(s.partial_loss_sum);
  meta["optimizer_steps"] = std::to_string(s.optimizer_steps);
  meta["seed"] = std::to_string(s.seed);
  meta["recipe"] = s.recipe;
  meta["backend"] = s.backend;
  Json backend_options = Json::object();
  for (const auto& [name, value] : s.backend_options) backend_options[name] = value;
  meta["backend_options"] = backend_options.dump();
  meta["batch_size"] = std::to_string(s.batch_size);
  meta["samples"] = std::to_string(s.samples);
  meta["augment"] = s.augment;
  meta["input_noise"] = to_text(s.input_noise);
  meta["lr_schedule"] = s.lr_schedule;
  // Only when set: a default run's checkpoint stays byte for byte as before.
  if (s.sparsity != "none") meta["sparsity"] = s.sparsity;
  // Only graphs are recorded: a run op by op keeps its checkpoint as before.
  if (s.execution != "ops") meta["execution"] = s.execution;
  meta["optimizer"] = Json{{"kind", s.optimizer.kind},
                           {"learning_rate", s.optimizer.learning_rate},
                           {"momentum", s.optimizer.momentum},
                           {"beta1", s.optimizer.beta1},
                           {"beta2", s.optimizer.beta2},
                           {"epsilon", s.optimizer.epsilon},
                           {"weight_decay", s.optimizer.weight_decay}}
                          .dump();
  meta["train_losses"] = Json(s.train_losses).dump();
  meta["test_mses"] = Json(s.test_mses).dump();
  if (s.data) meta["data"] = data_record_json(*s.data).dump();
  return meta;
}

TrainingState parse_training_state(const SafetensorsMetadata& metadata, const std::string& path) {
  const MetadataReader reader(metadata, path);
  constexpr int64_t kMaxImages = int64_t{1} << 40;
  TrainingState s;
  // A file of another format is not read as if it were ours (files without
  // the field hold weights only and are read as such; the architecture is
  // checked with the model, nn/model_metadata.cpp).
  const std::string format = reader.text("format", kCheckpointFormat);
  if (format != kCheckpointFormat && format != kCheckpointFormatWithInput) {
    reader.fail("format", "is '" + format + "', not " + kCheckpointFormat + " or " +
                              kCheckpointFormatWithInput +
                              " (a file of another program, or of a newer cae)");
  }
  s.epochs_done = reader.integer<int>("epoch", 0, 0, kMaxEpochs);
  s.epochs_planned = reader.integer<int>("epochs_planned", 0, 0, kMaxEpochs);
  s.batches_done = reader.integer<int64_t>("batches_done", 0, 0, kMaxImages);
  s.partial_loss_sum =
      reader.real("partial_loss_sum", 0.0, 0.0, std::numeric_limits<double>::max());
  s.optimizer_steps = reader.integer<int64_t>("optimizer_steps", 0, 0, kMaxImages);
  s.seed = reader.integer<uint64_t>("seed", 0, 0, std::numeric_limits<uint64_t>::max());
  s.recipe = reader.text("recipe", "");
  if (!s.recipe.empty() && !is_training_recipe(s.recipe)) {
    reader.fail("recipe", "is '" + s.recipe + "', not a training recipe of this cae (default or seed)");
  }
  s.backend = reader.text("backend", "");
  s.backend_options = parse_backend_options(reader);
  s.batch_size = reader.integer<int>("batch_size", 64, 1, kMaxBatchSize);
  s.samples = reader.integer<int64_t>("samples", 0, 0, kMaxImages);
  s.augment = reader.text("augment", "none");
  try {
    parse_augmentation(s.augment);
  } catch (const std::invalid_argument&) {
    reader.fail("augment", "is '" + s.augment + "', not none, flip or flip-crop");
  }
  s.input_noise = reader.real("input_noise", 0.0, 0.0, kMaxInputNoise);
  s.lr_schedule = reader.text("lr_schedule", "constant");  // files from before schedules
  try {
    parse_lr_schedule(s.lr_schedule);
  } catch (const std::invalid_argument&) {
    reader.fail("lr_schedule", "is '" + s.lr_schedule + "', not constant, cosine or step");
  }
  s.sparsity = reader.text("sparsity", "none");  // files from before sparse codes
  try {
    parse_sparsity(s.sparsity);
  } catch (const std::invalid_argument&) {
    reader.fail("sparsity", "is '" + s.sparsity +
                                "', not none, wta-spatial or l1:LAMBDA with LAMBDA in (0, 1000]");
  }
  s.execution = reader.text("execution", "ops");  // files from before graphs ran op by op
  if (s.execution != "graph" && s.execution != "ops") {
    reader.fail("execution", "is '" + s.execution + "', not graph or ops");
  }
  s.optimizer = parse_optimizer(reader);
  s.train_losses = parse_losses(reader, "train_losses");
  s.test_mses = parse_losses(reader, "test_mses");
  s.data = parse_data_record(reader);
  if (s.batches_done > 0 && s.samples > 0 &&
      s.batches_done * int64_t{s.batch_size} >= s.samples + s.batch_size) {
    reader.fail("batches_done", "is " + std::to_string(s.batches_done) +
                                    ", more batches than an epoch of " + std::to_string(s.samples) +
                                    " images has");
  }
  return s;
}

}  // namespace cae::nn
