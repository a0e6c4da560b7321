// `cae import-weights`: the seed project's raw weights file as a checkpoint.
#include <cstring>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "io/binary_file.hpp"
#include "io/finite.hpp"
#include "nn/architecture.hpp"
#include "nn/checkpoint.hpp"
#include "option_checks.hpp"

namespace cae::cli {
namespace {

int run_import(const po::variables_map& vm) {
  const std::string in = vm["file"].as<std::string>();
  const std::string out_path = vm["out"].as<std::string>();
  if (in.empty()) throw UsageError("the weights FILE is empty; name the seed's weights file");
  const OutputLock lock = claim_output_file(out_path);
  require_not_an_input(out_path, {in});
  std::error_code error;
  if (std::filesystem::is_directory(in, error)) {
    throw std::runtime_error(in + " is a folder, not the seed's weights file");
  }
  // The seed project's file holds the seed network's parameters only.
  const nn::Network network = nn::Network::seed();
  const int64_t expected = network.parameter_count() * int64_t(sizeof(float));
  const uintmax_t bytes = std::filesystem::file_size(in, error);
  if (!error && bytes != uintmax_t(expected)) {
    throw std::runtime_error(in + " is " + std::to_string(bytes) +
                             " bytes; the seed's weights file is " + std::to_string(expected) +
                             " (751,875 float32 values)");
  }
  const std::string raw = read_binary_file(in);
  if (raw.size() != size_t(expected)) {
    throw std::runtime_error(in + " is " + std::to_string(raw.size()) +
                             " bytes; the seed's weights file is " + std::to_string(expected) +
                             " (751,875 float32 values)");
  }
  std::vector<float> flat(size_t(network.parameter_count()));
  std::memcpy(flat.data(), raw.data(), raw.size());
  require_finite(flat.data(), flat.size(), in);
  nn::Checkpoint checkpoint;
  checkpoint.parameters = nn::Parameters::from_flat(network, flat);
  checkpoint.state.recipe = "imported";
  nn::save_checkpoint(out_path, checkpoint);
  std::cout << "imported " << in << " -> " << out_path << "\n";
  return 0;
}

}  // namespace

Command import_weights_command() {
  return {"import-weights", "cae import-weights FILE [--out CKPT]",
          "Convert the seed project's raw 751,875-float weights file into a checkpoint",
          [](po::options_description& options, po::positional_options_description& positionals) {
            options.add_options()
                ("file", po::value<std::string>()->required(), "the seed's weights file")
                ("out", po::value<std::string>()->default_value("imported.safetensors")->value_name("CKPT"), "checkpoint to write");
            positionals.add("file", 1);
          },
          run_import};
}

}  // namespace cae::cli
