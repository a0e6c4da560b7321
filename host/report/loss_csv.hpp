// The numbers behind a loss chart as CSV, so a finished run's chart can be
// redrawn (`cae report`) and read by other tools.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "report/loss_curve.hpp"

namespace cae {

// Header "epoch,<series name>,...", then one line per epoch; a value a series
// lacks (NaN, or past its end) is an empty field.
std::string loss_series_csv(const std::vector<LossSeries>& series);

// Writes loss_series_csv() atomically; IoError names `path` on failure.
void write_loss_series_csv(const std::filesystem::path& path,
                           const std::vector<LossSeries>& series);

// The most series read_loss_series_csv() accepts.
inline constexpr std::size_t kMaxLossSeries = 64;

// The series of such a file, coloured in order (series_color). Throws
// std::runtime_error naming `path` when it cannot be read or is malformed:
// more than kMaxLossSeries series, a name not fit to show
// (io/display_name.hpp), a value that is neither empty nor a finite number.
std::vector<LossSeries> read_loss_series_csv(const std::filesystem::path& path);

}  // namespace cae
