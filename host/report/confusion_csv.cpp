#include "report/confusion_csv.hpp"

#include "io/atomic_file.hpp"
#include "report/class_names.hpp"
#include "report/csv_field.hpp"
#include "report/text_file.hpp"

#include <stdexcept>

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
  auto fail = [&](const std::string& what) {
    return std::runtime_error(path.string() + ": " + what);
  };
  std::vector<std::vector<std::string>> rows;
  try {
    rows = parse_csv(read_text_file(path));
  } catch (const std::invalid_argument& e) {
    throw fail(e.what());
  }
  if (rows.size() < 2 || rows[0].size() != rows.size()) {
    throw fail("not a square confusion table (a header and one row per class)");
  }
  const int n = static_cast<int>(rows.size()) - 1;
  ConfusionTable table{ConfusionMatrix(n), {rows[0].begin() + 1, rows[0].end()}};
  for (int t = 0; t < n; ++t) {
    const std::vector<std::string>& row = rows[static_cast<std::size_t>(t) + 1];
    if (row.size() != rows[0].size()) {
      throw fail("line " + std::to_string(t + 2) + " has " + std::to_string(row.size()) +
                 " fields, the header " + std::to_string(rows[0].size()));
    }
    for (int p = 0; p < n; ++p) {
      const std::string& field = row[static_cast<std::size_t>(p) + 1];
      std::size_t used = 0;
      long long count = -1;
      try {
        count = std::stoll(field, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (field.empty() || used != field.size() || count < 0) {
        throw fail("line " + std::to_string(t + 2) + ": \"" + field + "\" is not a count");
      }
      table.matrix.add(t, p, count);
    }
  }
  return table;
}

}  // namespace cae
