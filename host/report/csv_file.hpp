// A CSV file of a finished run, read back to redraw its figures: every
// error names the file and the line.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace cae {

class CsvFile {
 public:
  // Reads and parses `path` (parse_csv). Throws std::runtime_error naming it.
  explicit CsvFile(const std::filesystem::path& path);

  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

  // "<path>: <what>", to throw.
  std::runtime_error error(const std::string& what) const;
  // Throws error() unless row `row` has as many fields as the header.
  void check_width(std::size_t row) const;
  // Field (row, column) as a name to show (io/display_name.hpp). Throws error().
  const std::string& name(std::size_t row, std::size_t column) const;
  // Field (row, column) as a finite number; an empty field is NaN. Throws error().
  double number(std::size_t row, std::size_t column) const;
  // Field (row, column) as a count (an integer >= 0). Throws error().
  std::int64_t count(std::size_t row, std::size_t column) const;

 private:
  std::string where(std::size_t row, std::size_t column) const;

  std::filesystem::path path_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace cae
