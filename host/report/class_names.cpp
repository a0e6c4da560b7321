#include "report/class_names.hpp"

#include <stdexcept>

namespace cae {

std::vector<std::string> class_names_for(const std::vector<std::string>& names, int num_classes) {
  if (names.empty()) {
    std::vector<std::string> numbers;
    for (int c = 0; c < num_classes; ++c) numbers.push_back(std::to_string(c));
    return numbers;
  }
  if (names.size() != static_cast<std::size_t>(num_classes)) {
    throw std::invalid_argument(std::to_string(names.size()) + " class names given for " +
                                std::to_string(num_classes) + " classes");
  }
  return names;
}

}  // namespace cae
