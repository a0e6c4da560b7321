// `cae import-weights`: the seed project's raw weights file as a checkpoint.
#include <fstream>
#include <iostream>

#include "commands.hpp"
#include "nn/architecture.hpp"
#include "nn/checkpoint.hpp"
#include "option_checks.hpp"

namespace cae::cli {
namespace {

int run_import(const po::variables_map& vm) {
  const std::string in = vm["file"].as<std::string>();
  std::ifstream file(in, std::ios::binary | std::ios::ate);
  if (!file) throw std::runtime_error("cannot open " + in);
  const auto bytes = static_cast<int64_t>(file.tellg());
  const int64_t expected = nn::total_parameter_count() * int64_t(sizeof(float));
  if (bytes != expected) {
    throw std::runtime_error(in + " is " + std::to_string(bytes) + " bytes; the seed's weights file is " +
                             std::to_string(expected) + " (751,875 float32 values)");
  }
  std::vector<float> flat(size_t(nn::total_parameter_count()));
  file.seekg(0);
  file.read(reinterpret_cast<char*>(flat.data()), bytes);
  const std::string out_path = vm["out"].as<std::string>();
  prepare_output_file(out_path);
  nn::Checkpoint checkpoint;
  checkpoint.parameters = nn::Parameters::from_flat(flat);
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
