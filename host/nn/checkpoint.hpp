// Checkpoints in the safetensors format: the model's tensors under their
// architecture names (loadable by Python's safetensors and PyTorch), the
// optimiser state for --resume, and the run's metadata (epoch, recipe,
// backend, seed, losses). Written atomically.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "data/data_record.hpp"
#include "nn/optimizer.hpp"
#include "nn/parameters.hpp"

namespace cae::nn {

struct TrainingState {
  int epochs_done = 0;           // complete epochs
  int epochs_planned = 0;        // the run's --epochs, so --resume knows where to stop
  int64_t batches_done = 0;      // of the epoch in progress (interrupted runs)
  double partial_loss_sum = 0;   // loss * images over those batches
  int64_t optimizer_steps = 0;
  uint64_t seed = 0;
  std::string recipe;
  std::string backend;
  // Every option the backend declares, with the value the run used (ABI 1.4).
  std::vector<std::pair<std::string, std::string>> backend_options;
  OptimizerSettings optimizer;
  int batch_size = 64;
  int64_t samples = 0;           // training images used
  std::string augment = "none";  // data/augment.hpp's names
  double input_noise = 0;        // sigma of the denoising noise (0 = none)
  std::string lr_schedule = "constant";  // nn/lr_schedule.hpp's names
  std::string sparsity = "none";  // nn/latent_sparsity.hpp's names
  // How the last run executed its training steps: "graph" (ABI 1.5) or "ops".
  std::string execution = "ops";
  std::vector<double> train_losses;  // per complete epoch
  std::vector<double> test_mses;
  // The data the run trained on; empty for files from before it was recorded.
  std::optional<DataRecord> data;
};

struct Checkpoint {
  Parameters parameters;
  std::vector<HostTensor> optimizer_state;  // empty for weights-only files
  TrainingState state;
};

void save_checkpoint(const std::string& path, const Checkpoint& checkpoint);

// Throws std::runtime_error naming the file for truncated or corrupt files,
// for checkpoints of another architecture, for a NaN or infinity in any tensor
// (parameters and optimiser state) and for metadata out of its range, naming
// the tensor or field.
Checkpoint load_checkpoint(const std::string& path);

}  // namespace cae::nn
