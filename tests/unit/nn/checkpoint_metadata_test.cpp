// Every field of a checkpoint's training state is checked once, at load: the
// message names the file and the field (docs/reliability.md).
#include "nn/checkpoint_metadata.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

using cae::nn::parse_training_state;
using cae::nn::training_state_metadata;
using cae::nn::TrainingState;

namespace {

TrainingState sample_state() {
  TrainingState s;
  s.epochs_done = 3;
  s.epochs_planned = 5;
  s.batches_done = 7;
  s.partial_loss_sum = 12.5;
  s.optimizer_steps = 1234;
  s.seed = std::numeric_limits<uint64_t>::max();
  s.recipe = "seed";
  s.backend = "v4";
  s.backend_options = {{"bf16-terms", "3"}, {"fp32-conv", "true"}};
  s.optimizer.kind = "sgd";
  s.optimizer.learning_rate = 0.01f;
  s.optimizer.momentum = 0.9f;
  s.batch_size = 32;
  s.samples = 1000;
  s.augment = "flip-crop";
  s.input_noise = 0.125;
  s.lr_schedule = "cosine";
  s.train_losses = {0.5, 0.25, 0.125};
  s.test_mses = {0.4, 0.2, 0.1};
  return s;
}

std::string error_for(const std::string& field, const std::string& value) {
  cae::SafetensorsMetadata metadata = training_state_metadata(sample_state());
  metadata[field] = value;
  try {
    parse_training_state(metadata, "run.safetensors");
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("the training state round-trips through metadata, the full seed range included") {
  const TrainingState s = parse_training_state(training_state_metadata(sample_state()), "x");
  CHECK(s.epochs_done == 3);
  CHECK(s.epochs_planned == 5);
  CHECK(s.batches_done == 7);
  CHECK(s.partial_loss_sum == 12.5);
  CHECK(s.seed == std::numeric_limits<uint64_t>::max());
  CHECK(s.optimizer.kind == "sgd");
  CHECK(s.optimizer.momentum == 0.9f);
  CHECK(s.batch_size == 32);
  CHECK(s.train_losses == std::vector<double>{0.5, 0.25, 0.125});
  CHECK(s.augment == "flip-crop");
  CHECK(s.input_noise == 0.125);
  CHECK(s.lr_schedule == "cosine");
  CHECK(s.backend == "v4");
  CHECK(s.backend_options ==
        std::vector<std::pair<std::string, std::string>>{{"bf16-terms", "3"}, {"fp32-conv", "true"}});
}

TEST_CASE("missing fields take their defaults (weights-only files)") {
  const TrainingState s = parse_training_state({}, "weights.safetensors");
  CHECK(s.epochs_done == 0);
  CHECK(s.batch_size == 64);
  CHECK(s.optimizer.kind == "adam");
  CHECK(s.augment == "none");
  CHECK(s.input_noise == 0);
  CHECK(s.lr_schedule == "constant");
  CHECK(s.backend_options.empty());  // files from before backend options
}

TEST_CASE("a bad field is refused naming the file and the field") {
  CHECK(error_for("batch_size", "0") ==
        "run.safetensors: checkpoint metadata 'batch_size' is 0, below 1");
  CHECK(error_for("batch_size", "12abc") ==
        "run.safetensors: checkpoint metadata 'batch_size' is '12abc', not a whole number");
  CHECK(error_for("seed", "-1") == "run.safetensors: checkpoint metadata 'seed' is -1, below 0");
  CHECK(error_for("seed", "18446744073709551616").find("'seed' is 18446744073709551616, above") !=
        std::string::npos);
  CHECK(error_for("epoch", "-3").find("'epoch' is -3, below 0") != std::string::npos);
  CHECK(error_for("epoch", "99999999999").find("'epoch' is 99999999999, above") !=
        std::string::npos);
  CHECK(error_for("partial_loss_sum", "nan").find("'partial_loss_sum' is") != std::string::npos);
  CHECK(error_for("partial_loss_sum", "1e999").find("'partial_loss_sum'") != std::string::npos);
  CHECK(error_for("optimizer", R"({"kind":"sgd","learning_rate":0})")
            .find("'optimizer.learning_rate' is 0.0, not a finite number in") != std::string::npos);
  CHECK(error_for("optimizer", R"({"kind":"lbfgs"})").find("'optimizer.kind'") !=
        std::string::npos);
  CHECK(error_for("optimizer", R"({"momentum":1e999})")
            .find("'optimizer' is not valid JSON: number overflow") != std::string::npos);
  CHECK(error_for("train_losses", "[0.5, -1]").find("'train_losses' is -1") != std::string::npos);
  CHECK(error_for("test_mses", "[0.5, \"x\"]").find("'test_mses' holds \"x\"") !=
        std::string::npos);
  CHECK(error_for("augment", "rotate") ==
        "run.safetensors: checkpoint metadata 'augment' is 'rotate', not none, flip or flip-crop");
  CHECK(error_for("input_noise", "-0.5").find("'input_noise' is -0.5, not a finite number in") !=
        std::string::npos);
  CHECK(error_for("lr_schedule", "linear") ==
        "run.safetensors: checkpoint metadata 'lr_schedule' is 'linear', not constant, cosine or "
        "step");
  CHECK(error_for("backend_options", "[1]").find("'backend_options' is not a JSON object") !=
        std::string::npos);
  CHECK(error_for("backend_options", R"({"bf16-terms":3})")
            .find("'backend_options' holds 3 for bf16-terms, not a string") != std::string::npos);
  CHECK(error_for("batches_done", "1000")
            .find("'batches_done' is 1000, more batches than an epoch") != std::string::npos);
}

TEST_CASE("the data a run trained on round-trips; files from before it was recorded have none") {
  TrainingState state = sample_state();
  const cae::DataRecord data = cae::data_record_from_json(nlohmann::json::parse(R"({
      "format": "stl10", "format_given": false, "path": "stl", "channels": 3, "side": 96,
      "resize": "", "labels": "", "class_names": ["airplane", "bird"],
      "train_images": 5000, "test_images": 8000, "unlabelled_images": 100000,
      "autoencoder_split": "unlabelled", "fraction_split": false,
      "files": 7, "file_bytes": 2970000000, "files_sha256": ""})"));
  state.data = data;
  const cae::SafetensorsMetadata metadata = training_state_metadata(state);
  const TrainingState back = parse_training_state(metadata, "x");
  REQUIRE(back.data.has_value());
  CHECK(cae::data_record_json(*back.data).dump() == cae::data_record_json(data).dump());
  CHECK_FALSE(parse_training_state(training_state_metadata(sample_state()), "x").data.has_value());
  CHECK(training_state_metadata(sample_state()).count("data") == 0);
  CHECK(error_for("data", "[]") == "run.safetensors: checkpoint metadata 'data' is not a JSON object");
  cae::SafetensorsMetadata damaged = metadata;
  damaged["data"].replace(damaged["data"].find("\"side\":96"), 9, "\"side\":-96");
  try {
    parse_training_state(damaged, "run.safetensors");
    FAIL("a negative side was accepted");
  } catch (const std::runtime_error& error) {
    CHECK(std::string(error.what()) ==
          "run.safetensors: checkpoint metadata 'data' field 'side' is -96, not in 1..65536");
  }
}
