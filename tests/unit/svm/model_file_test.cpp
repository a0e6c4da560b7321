#include "svm/model_file.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "io/io_error.hpp"
#include "io/safetensors.hpp"
#include "io/scratch_dir.hpp"
#include "svm/ovo_trainer.hpp"
#include "svm/predictor.hpp"
#include "svm/svm_error.hpp"
#include "test_data.hpp"

using namespace cae::svm;
using cae::test::ScratchDir;

namespace {

const OvoModel& trained_model() {
  static const OvoModel model = [] {
    TrainOptions options;
    options.threads = 2;
    options.cache_mb = 1.0;
    return train_ovo(test::cpu_context(), test::clustered(3, 40, 8, 1.5, 7, 0), options);
  }();
  return model;
}

// The one-line message a load of `path` fails with.
std::string load_error(const std::string& path) {
  try {
    load_model(path);
  } catch (const std::exception& error) {
    return error.what();
  }
  return "(loaded)";
}

}  // namespace

TEST_CASE("a saved SVM model loads back identical and predicts the same") {
  ScratchDir dir;
  const OvoModel& model = trained_model();
  save_model(model, dir.file("svm.safetensors"));
  CHECK(dir.listing() == "svm.safetensors");
  const OvoModel loaded = load_model(dir.file("svm.safetensors"));

  CHECK(loaded.classes == model.classes);
  CHECK(loaded.kernel == model.kernel);
  CHECK(loaded.gamma == model.gamma);
  CHECK(loaded.C == model.C);
  CHECK(loaded.dim == model.dim);
  CHECK(loaded.standardizer.mean() == model.standardizer.mean());
  CHECK(loaded.standardizer.scale() == model.standardizer.scale());
  CHECK(loaded.sv_count == model.sv_count);
  CHECK(loaded.sv_rows == model.sv_rows);
  CHECK(loaded.sv_class == model.sv_class);
  CHECK(loaded.sv_source == model.sv_source);
  REQUIRE(loaded.pairs.size() == model.pairs.size());
  for (size_t p = 0; p < model.pairs.size(); ++p) {
    CHECK(loaded.pairs[p].pair.first == model.pairs[p].pair.first);
    CHECK(loaded.pairs[p].pair.second == model.pairs[p].pair.second);
    CHECK(loaded.pairs[p].support == model.pairs[p].support);
    CHECK(loaded.pairs[p].coef == model.pairs[p].coef);
    CHECK(loaded.pairs[p].rho == model.pairs[p].rho);
  }

  const FeatureSet test = test::clustered(3, 20, 8, 1.5, 7, 1);
  CHECK(predict(test::cpu_context(), loaded, test).labels ==
        predict(test::cpu_context(), model, test).labels);
}

TEST_CASE("a truncated or corrupt SVM model file is rejected with one line naming it") {
  ScratchDir dir;
  const std::string good = dir.file("svm.safetensors");
  save_model(trained_model(), good);
  const std::string bytes = cae::test::read_bytes(good);

  const std::string truncated = dir.file("truncated.safetensors");
  cae::test::write_bytes(truncated, bytes.substr(0, bytes.size() / 2));
  const std::string message = load_error(truncated);
  CHECK(message.find(truncated) != std::string::npos);
  CHECK(message.find('\n') == std::string::npos);

  const std::string garbage = dir.file("garbage.safetensors");
  cae::test::write_bytes(garbage, "this is not a model at all");
  CHECK(load_error(garbage).find(garbage) != std::string::npos);

  CHECK(load_error(dir.file("missing.safetensors")).find("missing.safetensors") !=
        std::string::npos);

  // A well-formed safetensors file that is not an SVM model.
  const std::string other = dir.file("other.safetensors");
  cae::write_safetensors(other, {{"w", {2}, {1, 2}}}, {{"format", "cae-checkpoint"}});
  CHECK(load_error(other) == other + ": not a valid cae SVM model: format is 'cae-checkpoint'");

  // A model whose support indices point past the support vectors.
  cae::SafetensorsFile file = cae::read_safetensors(good);
  for (cae::NamedTensor& tensor : file.tensors) {
    if (tensor.name == "pair_support") tensor.data.back() = 1e6f;
  }
  const std::string broken = dir.file("broken.safetensors");
  cae::write_safetensors(broken, file.tensors, file.metadata);
  const std::string broken_message = load_error(broken);
  CHECK(broken_message.find(broken + ": not a valid cae SVM model: ") == 0);
  CHECK(broken_message.find("out of range") != std::string::npos);
}

TEST_CASE("a model with NaN or infinity in any tensor is refused at load, naming the tensor") {
  ScratchDir dir;
  const std::string good = dir.file("svm.safetensors");
  save_model(trained_model(), good);
  const std::string bytes = cae::test::read_bytes(good);
  uint64_t header_bytes = 0;
  std::memcpy(&header_bytes, bytes.data(), 8);
  const auto header = nlohmann::json::parse(bytes.substr(8, header_bytes));
  for (const char* tensor : {"sv_rows", "pair_coef", "pair_rho", "standardizer_scale"}) {
    for (float poison : {std::nanf(""), -std::numeric_limits<float>::infinity()}) {
      std::string damaged = bytes;
      const size_t at = 8 + header_bytes + header[tensor]["data_offsets"][0].get<size_t>();
      std::memcpy(&damaged[at], &poison, 4);
      const std::string path = dir.file("damaged.safetensors");
      cae::test::write_bytes(path, damaged);
      const std::string message = load_error(path);
      CHECK(message.rfind(path + ": tensor '" + tensor + "' holds a non-finite value (", 0) == 0);
      CHECK_THROWS_AS(parse_model(damaged, path), cae::IoError);
    }
  }
}

TEST_CASE("a model's C must be a positive number") {
  ScratchDir dir;
  const std::string good = dir.file("svm.safetensors");
  save_model(trained_model(), good);
  cae::SafetensorsFile file = cae::read_safetensors(good);
  for (const char* c : {"0", "-1", "nan", "1e999"}) {
    file.metadata["C"] = c;
    const std::string path = dir.file("c.safetensors");
    cae::write_safetensors(path, file.tensors, file.metadata);
    CHECK(load_error(path).rfind(path + ": not a valid cae SVM model: ", 0) == 0);
  }
}
