#include "data/data_error.hpp"

namespace cae {

DataError::DataError(const std::string& message) : std::runtime_error(message) {}

}  // namespace cae
