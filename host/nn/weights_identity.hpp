// The identity of a network's weights, carried by everything computed from
// them (features.json, SVM models, reports) so that products of different
// checkpoints are never combined: the SHA-256 of every parameter tensor's
// name, shape and float32 values (little-endian), in order. Rewriting a
// checkpoint with other metadata keeps it; any change of a weight changes it.
#pragma once

#include <string>

#include "nn/parameters.hpp"

namespace cae::nn {

std::string weights_identity(const Parameters& parameters);

// The first 12 hex digits, for messages ("sha256 3f2a9c01b7e4").
std::string short_identity(const std::string& identity);

}  // namespace cae::nn
