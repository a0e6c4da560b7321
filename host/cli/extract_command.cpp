// `cae extract`: encoder features of every image as .npy files.
#include <iostream>
#include <memory>
#include <optional>

#include "backend_session.hpp"
#include "commands.hpp"
#include "data_formats_help.hpp"
#include "feature_options.hpp"
#include "data_options.hpp"
#include "distributed_options.hpp"
#include "first_use_certification.hpp"
#include "io/npy.hpp"
#include "io/output_set.hpp"
#include "nn/checkpoint.hpp"
#include "nn/features.hpp"
#include "nn/trainer.hpp"
#include "nn/weights_identity.hpp"
#include "option_checks.hpp"
#include "path_options.hpp"

namespace cae::cli {
namespace {

int run_extract(const po::variables_map& vm) {
  const std::string out = vm["out"].as<std::string>();
  const int batch = option_in_range(vm, "batch", 1, nn::kMaxBatchSize);
  const int streams = option_in_range(vm, "streams", 0, 16);
  const nn::FeatureRecipe& recipe = feature_recipe_from(vm);
  const DataRequest request = data_request_from(vm);
  // Under a launcher each rank encodes its share of the images and rank 0
  // writes the output set; the ranks' exchange files go beside the folder.
  const DistributedRun distributed = distributed_run_from(vm, process_environment(), out);
  const Rendezvous& rendezvous = distributed.rendezvous;
  if (distributed.launcher) std::cout << distributed_run_text(distributed) << "\n";
  const po::variables_map placed = with_launcher_device(vm, distributed);
  const bool primary = rendezvous.rank == 0;
  std::optional<FolderClaim> claim;
  if (primary) {
    claim.emplace(claim_output_directory(
        out, {"train_features.npy", "train_labels.npy", "test_features.npy", "test_labels.npy",
              "features.json"},
        "--out"));
  }
  const std::string weights = vm["weights"].as<std::string>();
  nn::Checkpoint checkpoint = nn::load_checkpoint(weights);
  BackendSession session = select_backend_session(placed);
  const DataSplits data = load_requested_data(vm, request);
  const DataRecord record = data_record_from(request, data);
  require_trained_input(weights, checkpoint, record);
  require_recipe_fits(recipe, checkpoint.parameters.network);
  for (const ImageSet* images : {&data.train, &data.test}) {
    require_network_input(checkpoint.parameters.network, *images, data.location);
  }
  start_backend_session(session, placed, std::cout);
  const std::unique_ptr<ProcessGroup> processes =
      join_ranks(rendezvous, *session.context, session.contexts().size());
  note_transfer(weights, checkpoint, record, std::cout);
  std::optional<OutputSet> set;  // the five files replace the old ones together
  if (primary) set.emplace(out, "cae extract");
  const size_t dim = size_t(recipe.dim(checkpoint.parameters.network));
  for (auto [name, images] : {std::pair<const char*, const ImageSet*>{"train", &data.train},
                              {"test", &data.test}}) {
    const std::vector<float> features =
        nn::extract_features(session.contexts(), checkpoint.parameters, recipe, *images, batch,
                             &std::cout, name, streams, processes.get());
    if (!primary) continue;
    write_npy_matrix(out + "/" + name + "_features.npy", features.data(), images->size(), dim);
    write_npy_vector(out + "/" + name + "_labels.npy", images->labels);
  }
  if (!primary) {
    std::cout << "rank " << rendezvous.rank << " done; rank 0 writes the features\n";
    return 0;
  }
  write_features_json(out + "/features.json", recipe, checkpoint.parameters.network, weights,
                      nn::weights_identity(checkpoint.parameters), checkpoint, record);
  set->publish();
  std::cout << "wrote {train,test}_{features,labels}.npy (" << recipe.name << ", " << dim
            << "-d) and features.json to " << out << "\n";
  return 0;
}

const char* const kExtractHelp =
    "DIR receives the features and labels of each split as .npy and features.json, the\n"
    "recipe they were made with. The checkpoint's input transform (contrast\n"
    "normalisation, whitening) is applied to every image first. Every recipe applies to\n"
    "any model and pools to fixed grids, so 96x96 images give the same dimension as\n"
    "32x32 ones (docs/models.md lists each recipe's dimension per preset;\n"
    "docs/features.md the recipes). Transfers go through the backend's page-locked\n"
    "memory when it has some (ABI 1.3).\n"
    "Under mpirun, srun or torchrun (or with --rank and --world-size) each rank encodes\n"
    "its share of the images on its own device and rank 0 writes the set: the same\n"
    "features as one process with --devices over as many devices (docs/distributed.md).\n\n";

}  // namespace

Command extract_command() {
  return {"extract",
          "cae extract [--backend B] [--devices LIST|all] --weights CKPT [--data PATH] [--data-format F] "
          "[--features NAME] [--feature-threshold ALPHA] [--batch N] [--streams N] "
          "[--rank R --world-size W --nccl-id-file PATH] --out DIR",
          "Encode every image into its feature vector; write features and labels as .npy",
          [](po::options_description& options, po::positional_options_description&) {
            add_backend_options(options);
            add_first_use_certification_option(options);
            add_data_options(options);
            add_features_option(options);
            add_distributed_options(options);
            options.add_options()
                ("weights", path_value("--weights")->required()->value_name("CKPT"), "trained checkpoint")
                ("out", path_value("--out")->required()->value_name("DIR"), "output folder")
                ("batch", po::value<int>()->default_value(256)->value_name("N"), "images per forward pass")
                ("streams", po::value<int>()->default_value(0)->value_name("N"),
                 "contexts per device, each on its own thread, so that one's copies overlap "
                 "another's compute (0 = auto: 4 for a backend with page-locked host memory, else 1)");
          },
          run_extract,
          std::string(kExtractHelp) + kDataFormatsHelp};
}

}  // namespace cae::cli
