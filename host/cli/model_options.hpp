// --model NAME|FILE.json for the commands that build a fresh network (train,
// pipeline, bench), and the model's description as `cae info --weights` and
// the commands print it.
#pragma once

#include <iosfwd>

#include "command.hpp"
#include "nn/architecture.hpp"
#include "plugin/context.hpp"

namespace cae::cli {

void add_model_option(po::options_description& options);

// The description --model names (checked before any data is read); a
// UsageError of one line for an unknown preset or an invalid file.
nn::ModelDescription model_description_from(const po::variables_map& vm);

// The description bound to the data's images; a UsageError naming --model
// for a model the images do not fit (a pool of an odd size), or one that
// needs more than the machine's memory even at --batch 1 (io/memory_budget.hpp),
// before anything is allocated.
nn::Network bind_model(const nn::ModelDescription& description, int image_channels,
                       int image_side);

// The same memory check against the backend's device (when the backend
// reports its memory; ABI cae_device_info), once its context is made.
void require_model_fits_device(const nn::Network& network, const DeviceInfo& device);

// A UsageError when --model was given explicitly with --resume or --weights:
// the checkpoint's own model is used, and another one would be silently ignored.
void reject_model_with(const po::variables_map& vm, const char* option);

// Layers with their shapes, parameters, FLOPs, feature dimension.
void print_network(const nn::Network& network, std::ostream& out);

}  // namespace cae::cli
