// The training loop: seeded shuffling every epoch, every image used (the
// partial last batch too), the epoch's mean training loss, the test
// reconstruction MSE, a progress display, a checkpoint after each epoch, and
// a resumable checkpoint when SIGINT/SIGTERM arrives.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "data/augment.hpp"
#include "data/image_set.hpp"
#include "nn/autoencoder.hpp"
#include "nn/checkpoint.hpp"
#include "nn/lr_schedule.hpp"
#include "nn/transformed_images.hpp"
#include "plugin/process_group.hpp"

namespace cae::nn {

// The accepted ranges, shared by the command line and checkpoint loading.
inline constexpr int kMaxBatchSize = 65536;
inline constexpr int kMaxEpochs = 100000;
inline constexpr double kMaxInputNoise = 1.0;  // images are in [0, 1]

struct TrainOptions {
  int epochs = 20;
  int batch_size = 64;
  OptimizerSettings optimizer;
  // Over the run's epochs: the rate of each step from optimizer.learning_rate.
  LrSchedule lr_schedule = LrSchedule::Constant;
  uint64_t seed = 1;
  std::string recipe = "default";
  // Applied to each training batch; the target of the loss is the augmented
  // image, before the input noise (denoising).
  Augmentation augment = Augmentation::None;
  float input_noise = 0;
  // The input transform a fresh run learns on `train` before its first step
  // (a run that starts from parameters with a transform keeps theirs); it is
  // applied after the augmentation and before the input noise.
  InputTransformSpec input;
  // Sparse codes (nn/latent_sparsity.hpp): none, an L1 penalty or the
  // spatial winner-take-all.
  Sparsity sparsity;
  // Graphs or op by op (nn/graph_execution.hpp); recorded as what ran.
  Execution execution = Execution::Auto;
  std::string backend;
  std::vector<std::pair<std::string, std::string>> backend_options;  // in effect, recorded
  // The data the run trains on, recorded in its checkpoints (none: a resumed
  // run keeps its checkpoint's record).
  std::optional<DataRecord> data;
  std::string checkpoint_path;  // saved after every epoch and on interrupt ("" = never)
  // False: an interrupted run saves no checkpoint (`cae pipeline`, whose
  // folder keeps its previous, complete set instead: io/output_set.hpp).
  bool checkpoint_on_interrupt = true;
  // False: saved after the last epoch only (`cae pipeline`: a run that stops
  // keeps nothing of its own, so the earlier epochs' saves would be thrown
  // away, and each costs its write, hash and sync).
  bool checkpoint_each_epoch = true;
  int eval_batch_size = 256;
  // Several devices: sum gradients through host memory even when the backend
  // has collectives (tests compare the two paths).
  bool force_host_exchange = false;
  // One rank of a group of processes (docs/distributed.md), or nullptr. Rank
  // 0 alone evaluates the test set; give the others no checkpoint_path.
  ProcessGroup* processes = nullptr;
};

struct EpochRecord {
  int epoch = 0;  // 1-based
  double train_loss = 0;
  double test_mse = 0;
  double seconds = 0;
  double images_per_second = 0;
};

struct TrainOutcome {
  bool interrupted = false;
  int signal = 0;                   // the signal that interrupted it (SIGINT, SIGTERM)
  std::vector<EpochRecord> epochs;  // this run's epochs
  Checkpoint final_state;
};

// Trains from `start` (a fresh He-normal model, or a loaded checkpoint to
// resume). Log lines and the progress display go to `log`. Throws
// std::runtime_error when the loss stops being a finite number (a diverged
// run), before that state is saved over the last good checkpoint.
TrainOutcome train_autoencoder(Context& context, const ImageSet& train, const ImageSet& test,
                               const TrainOptions& options, const Checkpoint& start,
                               std::ostream& log);

// The same over several contexts of one backend (one per device), data
// parallel: options.batch_size is the global batch, split into equal shards
// (it must be divisible by contexts.size()). contexts[0] holds the state that
// is checkpointed and evaluates the test set.
TrainOutcome train_autoencoder(const std::vector<Context*>& contexts, const ImageSet& train,
                               const ImageSet& test, const TrainOptions& options,
                               const Checkpoint& start, std::ostream& log);

// Mean squared reconstruction error over a whole image set.
double reconstruction_mse(Context& context, Autoencoder& model, const ImageSet& images,
                          int batch_size);
// The same from the images' transforms computed beforehand (empty: as above).
double reconstruction_mse(Context& context, Autoencoder& model, const ImageSet& images,
                          int batch_size, const TransformedImages& transformed);

}  // namespace cae::nn
