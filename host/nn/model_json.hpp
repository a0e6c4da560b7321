// Model descriptions as JSON, the form `--model FILE.json` reads and
// checkpoints record:
//
//   {"name": "mine",
//    "encoder": [{"channels": 256, "kernel": 5, "pool": true},
//                {"channels": 128, "pool": true}],
//    "decoder": [...]}                       (optional; mirrored when absent)
//
// An encoder layer has "channels" (1..4096), "kernel" (odd, 1..15, default
// 3), "relu" (default true) and "pool" (2x2 max-pool after, default false);
// a decoder layer has "upsample" (2x nearest after) instead of "pool", and
// its last layer's "relu" defaults to false. Unknown keys are refused, so a
// misspelt field is not silently ignored.
#pragma once

#include <string>

#include "nn/model_description.hpp"

namespace cae::nn {

// Throws std::invalid_argument "<source>: '<field>' <problem>" (one line).
ModelDescription parse_model_json(const std::string& text, const std::string& source);

// Reads and parses a file; a missing or unreadable file is named too.
ModelDescription read_model_file(const std::string& path);

// The description with its decoder written out (explicit), compact JSON.
std::string model_json(const ModelDescription& description, int image_channels);

}  // namespace cae::nn
