#include "report/confusion_csv.hpp"

#include "io/atomic_file.hpp"
#include "report/class_names.hpp"
#include "report/csv_field.hpp"
#include "report/csv_file.hpp"

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

ConfusionTable read_confusion_csv(const std::filesystem::path& path) {
  CsvFile csv(path);
  const auto& rows = csv.rows();
  if (rows.size() < 2 || rows[0].size() != rows.size()) {
    throw csv.error("not a square confusion table (a header and one row per class)");
  }
  // The matrix has classes^2 cells: bounded, and every row checked before
  // it is allocated.
  if (rows.size() - 1 > kMaxConfusionClasses) {
    throw csv.error(std::to_string(rows.size() - 1) + " classes; a confusion table has at most " +
                    std::to_string(kMaxConfusionClasses));
  }
  for (std::size_t row = 1; row < rows.size(); ++row) csv.check_width(row);
  const int n = static_cast<int>(rows.size()) - 1;
  ConfusionTable table{ConfusionMatrix(n), {}};
  for (std::size_t column = 1; column < rows[0].size(); ++column) {
    table.class_names.push_back(csv.name(0, column));
  }
  for (int t = 0; t < n; ++t) {
    const std::size_t row = static_cast<std::size_t>(t) + 1;
    for (int p = 0; p < n; ++p) {
      try {
        table.matrix.add(t, p, csv.count(row, static_cast<std::size_t>(p) + 1));
      } catch (const std::overflow_error& e) {
        throw csv.error("line " + std::to_string(row + 1) + ": " + e.what());
      }
    }
  }
  return table;
}

}  // namespace cae
