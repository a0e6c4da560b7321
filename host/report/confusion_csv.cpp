#include "report/confusion_csv.hpp"

#include "io/atomic_file.hpp"
#include "report/class_names.hpp"
#include "report/csv_field.hpp"

namespace cae {

std::string confusion_csv(const ConfusionMatrix& matrix,
                          const std::vector<std::string>& class_names) {
  int n = matrix.num_classes();
  std::vector<std::string> names = class_names_for(class_names, n);
  std::string csv = "true\\predicted";
  for (const std::string& name : names) csv += "," + csv_field(name);
  csv += "\n";
  for (int t = 0; t < n; ++t) {
    csv += csv_field(names[t]);
    for (int p = 0; p < n; ++p) csv += "," + std::to_string(matrix.count(t, p));
    csv += "\n";
  }
  return csv;
}

void write_confusion_csv(const std::filesystem::path& path, const ConfusionMatrix& matrix,
                         const std::vector<std::string>& class_names) {
  write_file_atomically(path.string(), confusion_csv(matrix, class_names));
}

}  // namespace cae
