// A checkpoint's optimiser state is checked at load against what its
// optimiser needs (docs/reliability.md).
#include "nn/checkpoint.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <stdexcept>

#include "io/safetensors.hpp"
#include "io/scratch_dir.hpp"

using cae::nn::Checkpoint;
using cae::nn::HostTensor;

namespace {

// An Adam checkpoint whose moments are all zero.
Checkpoint adam_checkpoint() {
  Checkpoint checkpoint;
  checkpoint.parameters = cae::nn::Parameters::he_normal(cae::nn::Network::seed(), 3);
  checkpoint.state.optimizer.kind = "adam";
  for (const HostTensor& p : checkpoint.parameters.tensors) {
    for (const char* suffix : {".m", ".v"}) {
      checkpoint.optimizer_state.push_back(
          {"optimizer." + p.name + suffix, p.shape, std::vector<float>(p.data.size(), 0.0f)});
    }
  }
  return checkpoint;
}

std::string load_error(const std::string& path) {
  try {
    cae::nn::load_checkpoint(path);
  } catch (const std::runtime_error& error) {
    return error.what();
  }
  return "(loaded)";
}

}  // namespace

TEST_CASE("optimizer state that its optimizer cannot use is refused at load") {
  cae::test::ScratchDir dir;
  const std::string path = dir.file("c.safetensors");
  Checkpoint checkpoint = adam_checkpoint();
  cae::nn::save_checkpoint(path, checkpoint);
  CHECK(load_error(path) == "(loaded)");

  checkpoint.optimizer_state[1].data[5] = -1.0f;  // the first parameter's .v
  cae::nn::save_checkpoint(path, checkpoint);
  CHECK(load_error(path) == path + ": optimizer state 'optimizer." +
                                checkpoint.parameters.tensors[0].name +
                                ".v' holds a negative second moment at index 5");

  checkpoint = adam_checkpoint();
  checkpoint.optimizer_state.pop_back();
  cae::nn::save_checkpoint(path, checkpoint);
  CHECK(load_error(path).find("lacks optimizer state") != std::string::npos);

  checkpoint = adam_checkpoint();
  checkpoint.state.optimizer.kind = "sgd";
  checkpoint.state.optimizer.momentum = 0.9f;
  cae::nn::save_checkpoint(path, checkpoint);
  CHECK(load_error(path).find(".velocity' that its sgd optimizer needs") != std::string::npos);
}

TEST_CASE("a recorded model that does not fit the recorded image size is refused naming the file") {
  cae::test::ScratchDir dir;
  const std::string path = dir.file("c.safetensors");
  cae::nn::ModelDescription tiny;
  tiny.name = "tiny";
  tiny.encoder = {{2, 1, true, true}};  // 2 channels, 1x1, relu, pool
  Checkpoint checkpoint;
  checkpoint.parameters = cae::nn::Parameters::he_normal(cae::nn::Network(tiny, 3, 32), 3);
  cae::nn::save_checkpoint(path, checkpoint);
  REQUIRE(load_error(path) == "(loaded)");
  // An odd side cannot be pooled: the description is valid, the pair is not.
  cae::SafetensorsFile file = cae::read_safetensors(path);
  file.metadata["image_side"] = "31";
  cae::write_safetensors(path, file.tensors, file.metadata);
  const std::string error = load_error(path);
  CHECK(error.find(path + ": checkpoint metadata 'model' does not fit its 3x31x31 images: ") == 0);
}
