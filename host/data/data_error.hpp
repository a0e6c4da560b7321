#pragma once
// The one exception type of data/: a single line naming the file and what is wrong with it.

#include <stdexcept>
#include <string>

namespace cae {

class DataError : public std::runtime_error {
 public:
  explicit DataError(const std::string& message);
};

}  // namespace cae
