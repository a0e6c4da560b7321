#include "report/predictions_csv.hpp"

#include <stdexcept>

#include "io/atomic_file.hpp"
#include "report/csv_field.hpp"

namespace cae {
namespace {

std::string name_of(int label, const std::vector<std::string>& class_names, std::size_t sample) {
  bool known =
      label >= 0 && (class_names.empty() || static_cast<std::size_t>(label) < class_names.size());
  if (!known) {
    throw std::invalid_argument("sample " + std::to_string(sample) + ": label " +
                                std::to_string(label) + " has no class name (" +
                                std::to_string(class_names.size()) + " classes)");
  }
  return class_names.empty() ? std::to_string(label) : csv_field(class_names[label]);
}

}  // namespace

std::string predictions_csv(const std::vector<int>& true_labels,
                            const std::vector<int>& predicted_labels,
                            const std::vector<std::string>& class_names) {
  if (true_labels.size() != predicted_labels.size()) {
    throw std::invalid_argument("label counts differ: " + std::to_string(true_labels.size()) +
                                " true labels, " + std::to_string(predicted_labels.size()) +
                                " predicted labels");
  }
  std::string csv = "index,true_label,predicted_label,true_name,predicted_name\n";
  for (std::size_t i = 0; i < true_labels.size(); ++i) {
    int t = true_labels[i];
    int p = predicted_labels[i];
    csv += std::to_string(i) + "," + std::to_string(t) + "," + std::to_string(p) + "," +
           name_of(t, class_names, i) + "," + name_of(p, class_names, i) + "\n";
  }
  return csv;
}

void write_predictions_csv(const std::filesystem::path& path, const std::vector<int>& true_labels,
                           const std::vector<int>& predicted_labels,
                           const std::vector<std::string>& class_names) {
  write_file_atomically(path.string(), predictions_csv(true_labels, predicted_labels, class_names));
}

}  // namespace cae
