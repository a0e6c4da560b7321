// Training recipes: named settings a user can start from. Explicit options
// (--lr, --epochs, ...) override the recipe's values.
#pragma once

#include <string>

#include "command.hpp"
#include "nn/trainer.hpp"

namespace cae::cli {

// "seed": the seed project's plain SGD, lr 0.001, batch 64, 20 epochs.
// "default": Adam 3e-4, batch 64, 20 epochs (docs/PERF.md says how it was chosen).
nn::TrainOptions recipe_options(const std::string& recipe);

void add_training_options(po::options_description& options);

// Recipe plus overrides, range-checked.
nn::TrainOptions training_options_from(const po::variables_map& vm);

// --execution graph on a backend without the ABI 1.5 graph members: one line
// (std::runtime_error) before any training, not a failure at the first step.
void require_execution_supported(nn::Execution execution, const Context& context);

}  // namespace cae::cli
