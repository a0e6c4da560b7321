// The seed project's raw weights file (`cae import-weights`): the seed
// network's 751,875 parameters as float32, in the order of
// Parameters::from_flat, nothing else.
#pragma once

#include <string>

#include "nn/parameters.hpp"

namespace cae::nn {

// The parameters in `bytes`, the contents of `path`. IoError naming `path`
// when the size is not exactly the seed network's or a value is NaN or infinite.
Parameters parse_seed_weights(const std::string& bytes, const std::string& path);

// Reads and parses `path`; its size is checked before anything is read, so a
// huge file is refused at once. IoError naming `path`.
Parameters read_seed_weights(const std::string& path);

}  // namespace cae::nn
