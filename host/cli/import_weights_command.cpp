// `cae import-weights`: the seed project's raw weights file as a checkpoint.
#include <iostream>

#include "commands.hpp"
#include "nn/checkpoint.hpp"
#include "nn/seed_weights.hpp"
#include "option_checks.hpp"
#include "path_options.hpp"

namespace cae::cli {
namespace {

int run_import(const po::variables_map& vm) {
  const std::string in = vm["file"].as<std::string>();
  const std::string out_path = vm["out"].as<std::string>();
  if (in.empty()) throw UsageError("the weights FILE is empty; name the seed's weights file");
  const OutputLock lock = claim_output_file(out_path, "--out");
  require_not_an_input(out_path, {in});
  nn::Checkpoint checkpoint;
  checkpoint.parameters = nn::read_seed_weights(in);
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
                ("file", path_value("FILE")->required(), "the seed's weights file")
                ("out", output_file_value("--out")->default_value("imported.safetensors")->value_name("CKPT"), "checkpoint to write");
            positionals.add("file", 1);
          },
          run_import};
}

}  // namespace cae::cli
