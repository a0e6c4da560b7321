#include "report/csv_file.hpp"

#include <cmath>
#include <limits>

#include "io/display_name.hpp"
#include "io/io_error.hpp"
#include "report/csv_field.hpp"
#include "report/text_file.hpp"

namespace cae {

CsvFile::CsvFile(const std::filesystem::path& path) : path_(path) {
  try {
    rows_ = parse_csv(read_text_file(path));
  } catch (const std::invalid_argument& e) {
    throw error(e.what());
  }
}

std::runtime_error CsvFile::error(const std::string& what) const {
  return std::runtime_error(path_.string() + ": " + what);
}

void CsvFile::check_width(std::size_t row) const {
  if (rows_[row].size() != rows_[0].size()) {
    throw error("line " + std::to_string(row + 1) + " has " + std::to_string(rows_[row].size()) +
                " fields, the header " + std::to_string(rows_[0].size()));
  }
}

std::string CsvFile::where(std::size_t row, std::size_t column) const {
  // The field is quoted in a one-line message: control characters escaped,
  // and no more than its start.
  constexpr std::size_t kShown = 40;
  const std::string& field = rows_[row][column];
  const std::string shown =
      printable_text(field.substr(0, kShown)) + (field.size() > kShown ? "..." : "");
  return "line " + std::to_string(row + 1) + ": \"" + shown + "\"";
}

const std::string& CsvFile::name(std::size_t row, std::size_t column) const {
  const std::string problem = display_name_problem(rows_[row][column]);
  if (!problem.empty()) throw error(where(row, column) + " " + problem);
  return rows_[row][column];
}

double CsvFile::number(std::size_t row, std::size_t column) const {
  const std::string& field = rows_[row][column];
  if (field.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(field, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != field.size()) throw error(where(row, column) + " is not a number");
  // An empty field is how a missing value is written; "nan" or "inf" is damage.
  if (!std::isfinite(value)) throw error(where(row, column) + " is not a finite number");
  return value;
}

std::int64_t CsvFile::count(std::size_t row, std::size_t column) const {
  const std::string& field = rows_[row][column];
  std::size_t used = 0;
  long long value = -1;
  try {
    value = std::stoll(field, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (field.empty() || used != field.size() || value < 0) {
    throw error(where(row, column) + " is not a count");
  }
  return value;
}

}  // namespace cae
