// `cae train`: train the autoencoder on a backend, checkpointing every epoch.
#include <iostream>
#include <memory>
#include <optional>

#include "backend_session.hpp"
#include "commands.hpp"
#include "data_formats_help.hpp"
#include "device_list.hpp"
#include "distributed_options.hpp"
#include "data_options.hpp"
#include "first_use_certification.hpp"
#include "ignored_options.hpp"
#include "model_options.hpp"
#include "nn/latent_sparsity.hpp"
#include "option_checks.hpp"
#include "path_options.hpp"
#include "training_recipe.hpp"

namespace cae::cli {
namespace {

// A resumed run continues with the settings stored in its checkpoint (so an
// interrupted run ends bit-identical to an uninterrupted one): an option the
// user gives that differs from them cannot take effect and is refused, before
// any data is read. The same value is accepted.
void refuse_changed_settings(const po::variables_map& vm, const nn::TrainOptions& given,
                             const nn::TrainingState& stored, const InputTransformSpec& stored_input,
                             const std::string& resume) {
  const std::pair<const char*, bool> differs[] = {
      {"recipe", given.recipe != stored.recipe},
      {"batch", given.batch_size != stored.batch_size},
      {"optimizer", given.optimizer.kind != stored.optimizer.kind},
      {"lr", given.optimizer.learning_rate != stored.optimizer.learning_rate},
      {"momentum", given.optimizer.momentum != stored.optimizer.momentum},
      {"weight-decay", given.optimizer.weight_decay != stored.optimizer.weight_decay},
      {"seed", given.seed != stored.seed},
      {"augment", given.augment != parse_augmentation(stored.augment)},
      {"input-noise", given.input_noise != float(stored.input_noise)},
      {"lr-schedule", given.lr_schedule != nn::parse_lr_schedule(stored.lr_schedule)},
      {"sparsity", nn::sparsity_name(given.sparsity) != stored.sparsity},
      {"whiten", whitening_name(given.input) != whitening_name(stored_input)},
      {"contrast-normalize", given.input.contrast_normalize != stored_input.contrast_normalize}};
  for (const auto& [name, changed] : differs) {
    if (changed && option_given(vm, name)) {
      throw UsageError("--" + std::string(name) + " cannot change a resumed run: " + resume +
                       " continues with the settings stored in it (start a new run without "
                       "--resume to change them)");
    }
  }
}

int run_train(const po::variables_map& vm) {
  // Everything the command line can get wrong is checked before any work.
  nn::TrainOptions options = training_options_from(vm);
  const nn::ModelDescription model_description = model_description_from(vm);
  DataRequest request = data_request_from(vm);
  const auto samples = option_in_range<int64_t>(vm, "samples", 0, 100000000);
  const auto test_samples = option_in_range<int64_t>(vm, "test-samples", 0, 100000000);
  const std::string resume = vm.count("resume") ? vm["resume"].as<std::string>() : "";
  if (vm.count("resume") && resume.empty()) {
    throw UsageError("--resume is empty; name a checkpoint");
  }
  options.checkpoint_path =
      !resume.empty() && vm["out"].defaulted() ? resume : vm["out"].as<std::string>();
  const DistributedRun distributed = distributed_run_from(vm, process_environment(), options.checkpoint_path);
  const Rendezvous& rendezvous = distributed.rendezvous;
  // The first line says where a launched rank's place came from.
  if (distributed.launcher) std::cout << distributed_run_text(distributed) << "\n";
  const po::variables_map placed = with_launcher_device(vm, distributed);
  // Rank 0 alone writes the checkpoint; the other ranks write nothing final.
  const bool primary = rendezvous.rank == 0;
  if (!primary) options.checkpoint_path.clear();
  std::optional<OutputLock> lock;
  if (primary) lock.emplace(claim_output_file(options.checkpoint_path, "--out"));

  nn::Checkpoint start;
  if (!resume.empty()) {
    reject_model_with(vm, "--resume");
    start = nn::load_checkpoint(resume);
    const InputTransformSpec stored_input =
        start.parameters.input ? start.parameters.input->spec : InputTransformSpec{};
    refuse_changed_settings(vm, options, start.state, stored_input, resume);
    options.input = stored_input;  // the stored transform itself goes on with the parameters
    options.sparsity = nn::parse_sparsity(start.state.sparsity);  // checked at load
    // A resumed run continues with the settings it was started with.
    options.optimizer = start.state.optimizer;
    options.batch_size = start.state.batch_size;
    options.seed = start.state.seed;
    options.recipe = start.state.recipe;
    options.augment = parse_augmentation(start.state.augment);  // checked at load
    options.input_noise = float(start.state.input_noise);
    options.lr_schedule = nn::parse_lr_schedule(start.state.lr_schedule);  // checked at load
    // --epochs may extend a run; without it the run stops where it was planned to.
    if (!vm.count("epochs") && start.state.epochs_planned > 0) {
      options.epochs = start.state.epochs_planned;
    }
    if (vm.count("epochs") && options.epochs < start.state.epochs_done) {
      throw UsageError("--epochs " + std::to_string(options.epochs) + " is fewer than the " +
                       std::to_string(start.state.epochs_done) + " epochs " + resume +
                       " has already done");
    }
  }

  BackendSession session = select_backend_session(placed);
  request.options.max_train = size_t(samples);
  request.options.max_test = size_t(test_samples);
  const DataSplits data = load_requested_data(vm, request);
  if (primary) require_not_an_input(options.checkpoint_path, data.files);
  const ImageSet& train_images = autoencoder_images(data, request);
  require_available(samples, train_images.size(), "--samples", data.location, "training images");
  require_available(test_samples, data.test.size(), "--test-samples", data.location, "test images");
  if (resume.empty()) {
    const nn::Network network = bind_model(model_description, train_images.channels, train_images.side);
    start.parameters = nn::Parameters::he_normal(network, options.seed);
  }
  const DataRecord record = data_record_from(request, data, &train_images);
  if (!resume.empty()) require_trained_input(resume, start, record);
  require_network_input(start.parameters.network, train_images, data.location);
  nn::require_sparsity_fits(start.parameters.network, options.sparsity);
  require_whitening_fits(options.input, train_images.side);
  if (start.state.batches_done > 0 && uint64_t(start.state.samples) != train_images.size()) {
    // Mid-epoch resumption replays the epoch's order, which depends on the set's size.
    throw UsageError(resume + " stopped in the middle of an epoch over " +
                     std::to_string(start.state.samples) + " training images, but " + data.location +
                     " gives " + std::to_string(train_images.size()) +
                     "; resume with the same --data and --samples");
  }
  start_backend_session(session, placed, std::cout);
  require_model_fits_device(start.parameters.network, session.device);
  require_execution_supported(options.execution, *session.context);
  if (!resume.empty()) {
    note_transfer(resume, start, record, std::cout);
    std::cout << "resuming " << resume << " at epoch " << start.state.epochs_done + 1 << "\n";
  }
  std::cout << "training on " << train_images.size() << " images from " << data.location << " ("
            << data_format_name(data.format) << (&train_images == &data.unlabelled ? ", unlabelled split" : "")
            << (train_images.on_disk() ? ", read from disk batch by batch" : "") << "), testing on "
            << data.test.size() << "\n";
  if (start.state.epochs_done >= options.epochs) {
    std::cout << resume << " has already done its " << options.epochs
              << " epochs; nothing to train (give a larger --epochs to continue)\n";
    return 0;
  }
  options.backend = session.backend->name;
  options.backend_options = session.options_in_effect();
  options.data = record;
  require_batch_divisible(options.batch_size, session.contexts().size());
  const std::unique_ptr<ProcessGroup> processes =
      join_ranks(rendezvous, *session.context, session.contexts().size(), options.batch_size);
  options.processes = processes.get();
  nn::TrainOutcome outcome =
      nn::train_autoencoder(session.contexts(), train_images, data.test, options, start, std::cout);
  if (outcome.interrupted) return 128 + outcome.signal;
  if (primary) {
    std::cout << "checkpoint: " << options.checkpoint_path << "\n";
  } else {
    std::cout << "rank " << rendezvous.rank << " done; rank 0 writes the checkpoint\n";
  }
  return 0;
}

// What the options do to the checkpoint, which extract, evaluate and --resume read.
const char* const kTrainingHelp =
    "The checkpoint (safetensors) is written after every epoch; Ctrl-C saves a resumable\n"
    "one. It records the model, the augmentation and input noise (both seeded), the\n"
    "learning-rate schedule (a resumed run stays on its curve), the input transform\n"
    "(--contrast-normalize, then --whiten, applied identically by extract, evaluate and\n"
    "--resume), the sparsity, whether graphs ran, the backend's options and the data.\n"
    "--execution graph and ops give bit-identical checkpoints on the cpu backend.\n"
    "--devices trains data parallel in one process; --rank/--world-size run one process\n"
    "per device (docs/distributed.md); under mpirun, srun or torchrun the rank, the size\n"
    "and the device come from the launcher. Feature ingredients: docs/features.md.\n\n";

}  // namespace

Command train_command() {
  return {"train",
          "cae train [--backend B] [--devices LIST|all] [--data PATH] [--data-format F] [--unlabelled] [--samples N] [--epochs E] "
          "[--model seed|wide|deep|FILE.json] [--batch 64] [--optimizer adam|sgd] [--lr R] [--momentum M] [--seed S] "
          "[--augment none|flip|flip-crop] [--input-noise SIGMA] [--lr-schedule constant|cosine|step] "
          "[--whiten none|zca[:EPS]|pca[:EPS]|patch[S][:EPS]] [--contrast-normalize] [--sparsity none|l1:LAMBDA|wta-spatial] "
          "[--execution auto|graph|ops] [--out CKPT] [--resume CKPT] "
          "[--rank R --world-size W --nccl-id-file PATH]",
          "Train the convolutional autoencoder (no labels used); checkpoint after every epoch",
          [](po::options_description& options, po::positional_options_description&) {
            add_backend_options(options);
            add_first_use_certification_option(options);
            add_data_options(options);
            add_unlabelled_option(options);
            add_model_option(options);
            add_training_options(options);
            add_distributed_options(options);
            options.add_options()
                ("samples", po::value<int64_t>()->default_value(0)->value_name("N"), "training images to use (0 = all)")
                ("test-samples", po::value<int64_t>()->default_value(0)->value_name("N"), "test images for the reconstruction MSE (0 = all)")
                ("out", output_file_value("--out")->default_value("cae-model.safetensors")->value_name("CKPT"), "checkpoint to write")
                ("resume", output_file_value("--resume")->value_name("CKPT"), "continue an interrupted or finished run with the settings stored in CKPT (--epochs may extend it; "
                 "--recipe, --batch, --optimizer, --lr, --momentum, --weight-decay, --seed, --augment, --input-noise, "
                 "--lr-schedule, --whiten, --contrast-normalize and --sparsity other than CKPT's are refused)");
          },
          run_train,
          std::string(kTrainingHelp) + kDataFormatsHelp};
}

}  // namespace cae::cli
