// The model a checkpoint holds, in its safetensors metadata. The seed
// network on 3x32x32 images is written as checkpoints always named it
// ("architecture": "cae-seed-autoencoder", nothing more), so its checkpoints
// stay byte-identical to those written before models were data; any other
// network adds "model" (nn/model_json.hpp) and the images it reads
// ("image_channels", "image_side"). A file without "model" holds the seed.
#pragma once

#include <string>

#include "io/safetensors.hpp"
#include "nn/architecture.hpp"

namespace cae::nn {

void add_model_metadata(const Network& network, SafetensorsMetadata& metadata);

// Throws std::runtime_error "<path>: checkpoint metadata '<field>' ..." for
// a damaged or invalid record.
Network parse_model_metadata(const SafetensorsMetadata& metadata, const std::string& path);

}  // namespace cae::nn
