// A checkpoint's training state as safetensors metadata (strings), and back.
// Reading checks every field once, at load: a number must be a whole, finite
// number in its range, so a damaged file is refused with a message naming the
// file and the field, never found out later as "batch size must be > 0".
#pragma once

#include <string>

#include "io/safetensors.hpp"
#include "nn/checkpoint.hpp"

namespace cae::nn {

// The checkpoint format: a model whose input goes through a learned
// transform (data/input_transform.hpp) is written as format 2, which a cae
// that does not know the transform refuses ("a newer cae") instead of feeding
// the model untransformed images; every other checkpoint stays format 1.
inline constexpr const char* kCheckpointFormatPlain = "cae-checkpoint-1";
inline constexpr const char* kCheckpointFormatWithInput = "cae-checkpoint-2";

SafetensorsMetadata training_state_metadata(const TrainingState& state);

// Missing fields take their defaults (weights-only files have none); present
// ones must be valid. Throws std::runtime_error "<path>: checkpoint metadata
// '<field>' ..." otherwise.
TrainingState parse_training_state(const SafetensorsMetadata& metadata, const std::string& path);

}  // namespace cae::nn
