// The confusion matrix as a CSV table of counts.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "report/metrics.hpp"

namespace cae {

// Header "true\predicted,<name>,...", then one line per true class: its name
// and the count predicted as each class. `class_names` may be empty (numbers
// are used); otherwise it needs one name per class (std::invalid_argument).
std::string confusion_csv(const ConfusionMatrix& matrix,
                          const std::vector<std::string>& class_names);

// Writes confusion_csv() atomically; IoError (a std::runtime_error) names `path` on failure.
void write_confusion_csv(const std::filesystem::path& path, const ConfusionMatrix& matrix,
                         const std::vector<std::string>& class_names);

// A confusion matrix read back from confusion_csv()'s format, with its class names.
struct ConfusionTable {
  ConfusionMatrix matrix{1};
  std::vector<std::string> class_names;
};

// The most classes read_confusion_csv() accepts (as many as an SVM model may have).
inline constexpr std::size_t kMaxConfusionClasses = 4096;

// Throws std::runtime_error naming `path` when the file cannot be read, is
// not square, has more than kMaxConfusionClasses classes, holds a class name
// not fit to show (io/display_name.hpp), or holds something other than
// non-negative counts whose total fits 64 bits.
ConfusionTable read_confusion_csv(const std::filesystem::path& path);

}  // namespace cae
