// Model descriptions: the presets' derived counts (the seed's 751,875
// parameters and 8,192-d latent), the mirrored decoder, binding to image
// shapes, JSON parsing with one clear line per bad field, and the model a
// checkpoint records.
#include <doctest/doctest.h>

#include <map>
#include <stdexcept>

#include "io/safetensors.hpp"
#include "io/scratch_dir.hpp"
#include "nn/checkpoint.hpp"
#include "nn/model_json.hpp"

namespace cae::nn {
namespace {

std::string parse_error(const std::string& json) {
  try {
    parse_model_json(json, "m.json");
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "(parsed)";
}

std::string bind_error(const std::string& json, int channels, int side) {
  try {
    Network(parse_model_json(json, "m.json"), channels, side);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "(bound)";
}

TEST_CASE("the seed preset is the original network: 751,875 parameters, 8,192-d latent") {
  const Network seed = Network::seed();
  CHECK(seed.parameter_count() == 751875);
  CHECK(seed.feature_dim() == 8192);
  CHECK(seed.latent_channels() == 128);
  CHECK(seed.latent_size() == 8);
  CHECK(seed.image_floats() == 3072);
  CHECK(seed.forward_flops_per_image() == 349175808.0);
  CHECK(seed.encoder_layers() == 2);
  const std::vector<std::string> names = {"encoder.conv1", "encoder.conv2", "decoder.conv1",
                                          "decoder.conv2", "decoder.conv3"};
  const std::vector<std::vector<int64_t>> shapes = {
      {256, 3, 3, 3}, {128, 256, 3, 3}, {128, 128, 3, 3}, {256, 128, 3, 3}, {3, 256, 3, 3}};
  const std::vector<int> sizes = {32, 16, 8, 16, 32};
  REQUIRE(seed.layers().size() == names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    CAPTURE(i);
    const ConvLayer& layer = seed.layers()[i];
    CHECK(layer.name == names[i]);
    CHECK(layer.weight_shape() == shapes[i]);
    CHECK(layer.size == sizes[i]);
    CHECK(layer.relu == (i + 1 < names.size()));
    CHECK(layer.after == (i < 2 ? After::MaxPool : i < 4 ? After::Upsample : After::Nothing));
  }
  CHECK(seed.is_seed());
  CHECK_FALSE(Network(model_preset("seed"), 3, 64).is_seed());
  CHECK_FALSE(Network(model_preset("seed"), 1, 32).is_seed());
}

TEST_CASE("the wide and deep presets: derived counts") {
  const Network wide(model_preset("wide"), 3, 32);
  CHECK(wide.layers()[0].out_channels == 512);
  CHECK(wide.layers()[0].kernel == 5);
  CHECK(wide.parameter_count() == (3 * 512 * 25 + 512) + (512 * 128 * 9 + 128) +
                                      (128 * 128 * 9 + 128) + (128 * 512 * 9 + 512) +
                                      (512 * 3 * 25 + 3));
  CHECK(wide.feature_dim() == 8192);
  const Network deep(model_preset("deep"), 3, 32);
  CHECK(deep.encoder_layers() == 3);
  CHECK(deep.layers().size() == 7);
  CHECK(deep.layers()[2].after == After::Nothing);
  CHECK(deep.feature_dim() == 8192);
  // The input follows the data: STL-10's 96x96 images give a 24x24 latent.
  CHECK(Network(model_preset("deep"), 3, 96).feature_dim() == 128 * 24 * 24);
  CHECK_THROWS_WITH_AS(model_preset("tall"),
                       "unknown model preset 'tall' (seed, wide, deep, or a JSON file)",
                       std::invalid_argument);
}

TEST_CASE("the mirrored decoder undoes each pool and returns to the image's channels") {
  const std::vector<ConvSpec> decoder =
      mirrored_decoder({{16, 5, true, true}, {8, 3, true, false}, {4, 3, true, true}}, 1);
  REQUIRE(decoder.size() == 4);
  CHECK(decoder[0] == ConvSpec{4, 3, true, true});  // at the latent, undoing its pool
  CHECK(decoder[1] == ConvSpec{8, 3, true, false});
  CHECK(decoder[2] == ConvSpec{16, 3, true, true});
  CHECK(decoder[3] == ConvSpec{1, 5, false, false});
}

TEST_CASE("JSON descriptions: defaults, an explicit decoder, and the record round trip") {
  const ModelDescription d = parse_model_json(
      R"({"name": "small", "encoder": [{"channels": 6, "kernel": 5, "pool": true}, {"channels": 4}]})",
      "m.json");
  CHECK(d.name == "small");
  REQUIRE(d.encoder.size() == 2);
  CHECK(d.encoder[1] == ConvSpec{4, 3, true, false});
  CHECK(d.decoder.empty());
  const Network bound(d, 1, 10);
  CHECK(bound.latent_size() == 5);
  CHECK(bound.feature_dim() == 4 * 5 * 5);
  const Network again(parse_model_json(model_json(d, 1), "record"), 1, 10);
  CHECK(again == bound);

  const ModelDescription given = parse_model_json(
      R"({"encoder": [{"channels": 4, "pool": true}],
          "decoder": [{"channels": 5, "upsample": true}, {"channels": 2, "kernel": 1}]})",
      "m.json");
  CHECK(given.name == "custom");
  REQUIRE(given.decoder.size() == 2);
  CHECK_FALSE(given.decoder[1].relu);  // the reconstruction's default
  CHECK(Network(given, 2, 6).parameter_count() == (4 * 2 * 9 + 4) + (5 * 4 * 9 + 5) + (2 * 5 + 2));
}

TEST_CASE("bad JSON descriptions are refused with one line naming the field") {
  const std::map<std::string, std::string> cases = {
      {"{", "m.json: bad JSON: "},
      {R"({"name": "a", "name": "b", "encoder": [{"channels": 2}]})",
       "m.json: JSON has the key 'name' twice in the top level"},
      {"[]", "m.json: a model must be a JSON object, got []"},
      {R"({"name": "x"})", "m.json: 'encoder' is missing"},
      {R"({"encoder": []})", "m.json: 'encoder' must be a non-empty list of layers, got []"},
      {R"({"encoder": [{"kernel": 3}]})", "m.json: 'encoder[0].channels' is missing"},
      {R"({"encoder": [{"channels": 0}]})",
       "m.json: 'encoder[0].channels' must be a whole number from 1 to 4096, got 0"},
      {R"({"encoder": [{"channels": 2.5}]})",
       "m.json: 'encoder[0].channels' must be a whole number from 1 to 4096, got 2.5"},
      {R"({"encoder": [{"channels": 8, "kernel": 4}]})",
       "m.json: 'encoder[0].kernel' must be an odd whole number from 1 to 15, got 4"},
      {R"({"encoder": [{"channels": 8, "relu": 1}]})",
       "m.json: 'encoder[0].relu' must be true or false, got 1"},
      {R"({"encoder": [{"channels": 8, "upsample": true}]})",
       "m.json: 'encoder[0].upsample' is not a model field (channels, kernel, relu, pool)"},
      {R"({"encoder": [{"channels": 8}], "latent": 3})",
       "m.json: 'latent' is not a model field (name, encoder, decoder)"},
      {R"({"name": 7, "encoder": [{"channels": 8}]})",
       "m.json: 'name' must be a non-empty one-line string, got 7"},
  };
  for (const auto& [json, message] : cases) {
    CAPTURE(json);
    const std::string error = parse_error(json);
    CHECK(error.rfind(message, 0) == 0);
    CHECK(error.find('\n') == std::string::npos);
  }
}

TEST_CASE("a description that does not fit the images is refused naming the layer") {
  CHECK(bind_error(R"({"encoder": [{"channels": 4, "pool": true}, {"channels": 4, "pool": true}]})",
                   3, 6) ==
        "model 'custom': encoder.conv2 max-pools a 3x3 map, and a 2x2 pool needs an even size "
        "(on 3x6x6 images)");
  CHECK(bind_error(R"({"encoder": [{"channels": 4}], "decoder": [{"channels": 2}]})", 3, 8) ==
        "model 'custom': the decoder ends with 2x8x8 maps, but the reconstruction of 3x8x8 "
        "images must be 3x8x8");
  CHECK(bind_error(R"({"encoder": [{"channels": 4}], "decoder": [{"channels": 3, "upsample": true}]})",
                   3, 8) ==
        "model 'custom': decoder.conv1 is the reconstruction and cannot upsample after it");
  CHECK(bind_error(R"({"encoder": [{"channels": 4, "pool": true}]})", 3, 7).find(
            "encoder.conv1 max-pools a 7x7 map") != std::string::npos);
  CHECK(bind_error(R"({"encoder": [{"channels": 4, "pool": true}]})", 3, 8) == "(bound)");
}

TEST_CASE("checkpoints record a model other than the seed, and the seed as before") {
  cae::test::ScratchDir dir;
  const Network deep(model_preset("deep"), 1, 16);
  Checkpoint checkpoint;
  checkpoint.parameters = Parameters::he_normal(deep, 9);
  save_checkpoint(dir.file("deep.safetensors"), checkpoint);
  const Checkpoint loaded = load_checkpoint(dir.file("deep.safetensors"));
  CHECK(loaded.parameters.network == deep);
  CHECK(loaded.parameters.network.description().name == "deep");
  CHECK(loaded.parameters.tensors.size() == 14);
  CHECK(loaded.parameters.flatten() == checkpoint.parameters.flatten());
  SafetensorsMetadata meta = read_safetensors(dir.file("deep.safetensors")).metadata;
  CHECK(meta.at("architecture") == "cae-autoencoder");
  CHECK(meta.at("image_side") == "16");

  // The seed network is written as it always was: no model record at all.
  checkpoint.parameters = Parameters::he_normal(Network::seed(), 9);
  save_checkpoint(dir.file("seed.safetensors"), checkpoint);
  meta = read_safetensors(dir.file("seed.safetensors")).metadata;
  CHECK(meta.at("architecture") == "cae-seed-autoencoder");
  CHECK(meta.count("model") == 0);
  CHECK(load_checkpoint(dir.file("seed.safetensors")).parameters.network.is_seed());

  // A deep checkpoint stripped of its record reads as the seed, which it is not.
  std::vector<NamedTensor> tensors = Parameters::he_normal(deep, 9).tensors;
  write_safetensors(dir.file("stripped.safetensors"), tensors, {});
  CHECK_THROWS_WITH_AS(load_checkpoint(dir.file("stripped.safetensors")),
                       doctest::Contains("not a checkpoint of its model 'seed'"),
                       std::runtime_error);
  // A damaged record is named.
  write_safetensors(dir.file("damaged.safetensors"), tensors,
                    {{"model", "{\"encoder\": 3}"}, {"image_channels", "1"}, {"image_side", "16"}});
  CHECK_THROWS_WITH_AS(
      load_checkpoint(dir.file("damaged.safetensors")),
      (dir.file("damaged.safetensors") +
       ": checkpoint metadata 'model': 'encoder' must be a non-empty list of layers, got 3")
          .c_str(),
      std::runtime_error);
}

}  // namespace
}  // namespace cae::nn
