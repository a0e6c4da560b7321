#include "training_recipe.hpp"

#include <stdexcept>

#include "ignored_options.hpp"
#include "nn/latent_sparsity.hpp"
#include "nn/training_recipe_names.hpp"
#include "option_checks.hpp"
#include "plugin/compiled_graph.hpp"

namespace cae::cli {

nn::TrainOptions recipe_options(const std::string& recipe) {
  nn::TrainOptions o;
  o.recipe = recipe;
  o.batch_size = 64;
  o.epochs = 20;
  if (recipe == "seed") {
    o.optimizer.kind = "sgd";
    o.optimizer.learning_rate = 1e-3f;
    o.optimizer.momentum = 0.0f;
  } else if (recipe == "default") {
    // Adam at 1e-3 leaves ~3/4 of the latent's ReLU units dead (6,090 of 8,192
    // feature dims always zero on CIFAR-10); 3e-4 keeps them alive and scored
    // best of 1e-3, 3e-4 and 1e-4 on the validation split (docs/PERF.md).
    o.optimizer.kind = "adam";
    o.optimizer.learning_rate = 3e-4f;
  } else {
    // Every name of nn/training_recipe_names.hpp has its branch above.
    throw UsageError("unknown --recipe '" + recipe + "' (default or seed)");
  }
  return o;
}

void add_training_options(po::options_description& options) {
  options.add_options()
      ("recipe", po::value<std::string>()->default_value("default"), "default (Adam) or seed (the seed's SGD)")
      ("epochs", po::value<int>()->value_name("E"), "epochs (recipe: 20; `cae pipeline`'s best recipe: 60)")
      ("batch", po::value<int>()->value_name("N"), "batch size (recipe: 64)")
      ("optimizer", po::value<std::string>()->value_name("adam|sgd"), "optimizer (recipe decides)")
      ("lr", po::value<float>()->value_name("RATE"), "learning rate (recipe default: 0.0003, seed: 0.001)")
      ("momentum", po::value<float>()->value_name("M"), "SGD momentum in [0,1) (recipe: 0; refused with adam)")
      ("weight-decay", po::value<float>()->value_name("W"), "L2 weight decay (default 0)")
      ("seed", po::value<uint64_t>()->default_value(1)->value_name("S"), "seed for initialisation, shuffling and augmentation")
      ("augment", po::value<std::string>()->default_value("none")->value_name("none|flip|flip-crop"),
       "training augmentation: random horizontal flips, plus random shifts by up to 2 pixels (flip-crop)")
      ("input-noise", po::value<float>()->default_value(0.0f)->value_name("SIGMA"),
       "denoising: Gaussian noise of this deviation added to the input only (0 = none)")
      ("lr-schedule", po::value<std::string>()->default_value("constant")->value_name("constant|cosine|step"),
       "learning rate over the run's epochs: constant, cosine (from --lr down to 0), or step (/10 at half the run, /100 at three quarters)")
      ("whiten", po::value<std::string>()->default_value("none")->value_name("none|zca[:EPS]|pca[:EPS]|patch[S][:EPS]"),
       "whiten the input images, learned on the training images and stored in the checkpoint: ZCA "
       "(the whitened image closest to the original), PCA (components laid out as an image), or "
       "patch: ZCA of S x S patches (odd S, default 5; each patch's mean removed) applied as a "
       "convolution, every pixel the centre of its whitened patch; EPS (default 0.1) is added to "
       "the covariance's eigenvalues, in units of the mean pixel variance")
      ("contrast-normalize", po::bool_switch(),
       "per image: subtract its mean, divide by sqrt(its variance + 10/255^2) (before --whiten); stored in the checkpoint")
      ("sparsity", po::value<std::string>()->default_value("none")->value_name("none|l1:LAMBDA|wta-spatial"),
       "sparse codes: l1:LAMBDA adds LAMBDA x the mean absolute latent value to the training loss; "
       "wta-spatial hands the decoder only each latent map's largest value, at its place (the "
       "features stay dense; latent maps of a power-of-two side); stored in the checkpoint")
      ("execution", po::value<std::string>()->default_value("auto")->value_name("auto|graph|ops"),
       "how the backend runs the model: graph (each training step, reconstruction and encoder pass as one "
       "compiled graph, ABI 1.5; an error where the backend does not compile graphs), ops (one call per "
       "op), or auto (graphs where the backend compiles them, ops elsewhere)");
}

nn::TrainOptions training_options_from(const po::variables_map& vm) {
  nn::TrainOptions o = recipe_options(vm["recipe"].as<std::string>());
  if (vm.count("epochs")) o.epochs = option_in_range(vm, "epochs", 1, 100000);
  if (vm.count("batch")) o.batch_size = option_in_range(vm, "batch", 1, 65536);
  if (vm.count("optimizer")) {
    o.optimizer.kind = vm["optimizer"].as<std::string>();
    if (o.optimizer.kind != "adam" && o.optimizer.kind != "sgd") {
      throw UsageError("--optimizer must be adam or sgd, got '" + o.optimizer.kind + "'");
    }
  }
  if (vm.count("lr")) o.optimizer.learning_rate = option_in_range(vm, "lr", 1e-9f, 10.0f);
  // Adam has no momentum setting (its first moment uses beta1): a --momentum
  // given with it would change nothing.
  // (A resumed run compares --momentum with its checkpoint's instead.)
  if (o.optimizer.kind == "adam" && !vm.count("resume")) {
    refuse_given_options(vm, {"momentum"}, "applies to --optimizer sgd only; Adam has no momentum setting");
  }
  if (vm.count("momentum")) o.optimizer.momentum = option_in_range(vm, "momentum", 0.0f, 0.999f);
  if (vm.count("weight-decay")) o.optimizer.weight_decay = option_in_range(vm, "weight-decay", 0.0f, 1.0f);
  o.seed = vm["seed"].as<uint64_t>();
  try {
    o.augment = parse_augmentation(vm["augment"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  o.input_noise = option_in_range(vm, "input-noise", 0.0f, float(nn::kMaxInputNoise));
  try {
    o.lr_schedule = nn::parse_lr_schedule(vm["lr-schedule"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--lr-schedule: ") + e.what());
  }
  try {
    o.input = parse_whitening(vm["whiten"].as<std::string>());
    o.sparsity = nn::parse_sparsity(vm["sparsity"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  o.input.contrast_normalize = vm["contrast-normalize"].as<bool>();
  try {
    o.execution = nn::parse_execution(vm["execution"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--execution: ") + e.what());
  }
  return o;
}

void require_execution_supported(nn::Execution execution, const Context& context) {
  if (execution != nn::Execution::Graph || has_graph_members(context.table())) return;
  throw std::runtime_error("--execution graph: the backend '" + context.backend_name() +
                           "' does not compile graphs (it has no ABI 1.5 graph members); use "
                           "--execution auto or ops");
}

}  // namespace cae::cli
