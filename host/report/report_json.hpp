// report.json: everything a run's report.html shows, as data, so the page can
// be rendered again (`cae report RUN_DIR`) and runs compared.
#pragma once

#include <filesystem>
#include <string>

#include "report/html_report.hpp"

namespace cae {

// Version of the format; readers reject other major versions.
constexpr int kReportJsonVersion = 1;

// The JSON text of `data` (undefined numbers such as NaN are null).
std::string report_json(const ReportData& data);

// Parses report_json()'s text. Throws std::runtime_error saying what is
// wrong (not JSON, another format version, a field of the wrong type).
ReportData parse_report_json(const std::string& text);

// Reads and parses a file; errors name `path`.
ReportData read_report_json(const std::filesystem::path& path);

}  // namespace cae
