// Per-sample predictions as CSV, for looking up individual mistakes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cae {

// Header "index,true_label,predicted_label,true_name,predicted_name", then one
// line per sample (index counts from 0 in the order given). With an empty
// `class_names` the name columns repeat the numbers. Throws
// std::invalid_argument if the vectors differ in length or a label is negative
// or has no name.
std::string predictions_csv(const std::vector<int>& true_labels,
                            const std::vector<int>& predicted_labels,
                            const std::vector<std::string>& class_names);

// Writes predictions_csv() atomically; IoError (a std::runtime_error) names `path` on failure.
void write_predictions_csv(const std::filesystem::path& path, const std::vector<int>& true_labels,
                           const std::vector<int>& predicted_labels,
                           const std::vector<std::string>& class_names);

}  // namespace cae
