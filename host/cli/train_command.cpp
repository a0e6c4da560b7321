// `cae train`: train the autoencoder on a backend, checkpointing every epoch.
#include <iostream>

#include "backend_session.hpp"
#include "commands.hpp"
#include "device_list.hpp"
#include "data/cifar_dataset.hpp"
#include "option_checks.hpp"
#include "training_recipe.hpp"

namespace cae::cli {
namespace {

int run_train(const po::variables_map& vm) {
  nn::TrainOptions options = training_options_from(vm);
  const std::string data_dir = resolve_data_dir(vm);
  const auto samples = option_in_range<int64_t>(vm, "samples", 0, 100000000);
  const auto test_samples = option_in_range<int64_t>(vm, "test-samples", 0, 100000000);

  nn::Checkpoint start;
  if (vm.count("resume")) {
    const std::string resume = vm["resume"].as<std::string>();
    start = nn::load_checkpoint(resume);
    // A resumed run continues with the settings it was started with.
    options.optimizer = start.state.optimizer;
    options.batch_size = start.state.batch_size;
    options.seed = start.state.seed;
    options.recipe = start.state.recipe;
    // --epochs may extend a run; without it the run stops where it was planned to.
    if (!vm.count("epochs") && start.state.epochs_planned > 0) options.epochs = start.state.epochs_planned;
    options.checkpoint_path = vm["out"].defaulted() ? resume : vm["out"].as<std::string>();
    std::cout << "resuming " << resume << " at epoch " << start.state.epochs_done + 1 << "\n";
  } else {
    start.parameters = nn::Parameters::he_normal(options.seed);
    options.checkpoint_path = vm["out"].as<std::string>();
  }

  prepare_output_file(options.checkpoint_path);
  CifarData data = load_cifar(data_dir, size_t(samples), size_t(test_samples));
  std::cout << "training on " << data.train.size() << " images from " << data_dir << ", testing on "
            << data.test.size() << "\n";
  BackendSession session = open_backend_session(vm, std::cout);
  options.backend = session.backend->name;
  require_batch_divisible(options.batch_size, session.contexts().size());
  nn::TrainOutcome outcome =
      nn::train_autoencoder(session.contexts(), data.train, data.test, options, start, std::cout);
  if (outcome.interrupted) return 130;
  std::cout << "checkpoint: " << options.checkpoint_path << "\n";
  return 0;
}

}  // namespace

Command train_command() {
  return {"train",
          "cae train [--backend B] [--devices LIST|all] [--data DIR] [--samples N] [--epochs E] [--batch 64] "
          "[--optimizer adam|sgd] [--lr R] [--momentum M] [--seed S] [--out CKPT] [--resume CKPT]",
          "Train the convolutional autoencoder (no labels used); checkpoint after every epoch",
          [](po::options_description& options, po::positional_options_description&) {
            add_backend_options(options);
            add_data_option(options);
            add_training_options(options);
            options.add_options()
                ("samples", po::value<int64_t>()->default_value(0)->value_name("N"), "training images to use (0 = all)")
                ("test-samples", po::value<int64_t>()->default_value(0)->value_name("N"), "test images for the reconstruction MSE (0 = all)")
                ("out", po::value<std::string>()->default_value("cae-model.safetensors")->value_name("CKPT"), "checkpoint to write")
                ("resume", po::value<std::string>()->value_name("CKPT"), "continue an interrupted or finished run");
          },
          run_train};
}

}  // namespace cae::cli
