#include "report/loss_csv.hpp"

#include <cmath>
#include <cstdio>

#include "io/atomic_file.hpp"
#include "report/csv_field.hpp"
#include "report/csv_file.hpp"

namespace cae {

std::string loss_series_csv(const std::vector<LossSeries>& series) {
  std::string csv = "epoch";
  std::size_t epochs = 0;
  for (const LossSeries& s : series) {
    csv += "," + csv_field(s.name);
    epochs = std::max(epochs, s.values.size());
  }
  csv += "\n";
  for (std::size_t e = 0; e < epochs; ++e) {
    csv += std::to_string(e + 1);
    for (const LossSeries& s : series) {
      csv += ",";
      if (e < s.values.size() && std::isfinite(s.values[e])) {
        char text[32];
        std::snprintf(text, sizeof text, "%.9g", s.values[e]);
        csv += text;
      }
    }
    csv += "\n";
  }
  return csv;
}

void write_loss_series_csv(const std::filesystem::path& path,
                           const std::vector<LossSeries>& series) {
  write_file_atomically(path.string(), loss_series_csv(series));
}

std::vector<LossSeries> read_loss_series_csv(const std::filesystem::path& path) {
  CsvFile csv(path);
  const auto& rows = csv.rows();
  if (rows.empty() || rows[0].empty() || rows[0][0] != "epoch") {
    throw csv.error("not a loss table (its header must start with \"epoch\")");
  }
  // Each series is a line and a legend entry of the chart.
  if (rows[0].size() - 1 > kMaxLossSeries) {
    throw csv.error(std::to_string(rows[0].size() - 1) + " series; a loss table has at most " +
                    std::to_string(kMaxLossSeries));
  }
  std::vector<LossSeries> series;
  for (std::size_t c = 1; c < rows[0].size(); ++c) {
    series.push_back(LossSeries{csv.name(0, c), {}, series_color(c - 1)});
  }
  for (std::size_t r = 1; r < rows.size(); ++r) {
    csv.check_width(r);
    for (std::size_t c = 1; c < rows[r].size(); ++c)
      series[c - 1].values.push_back(csv.number(r, c));
  }
  return series;
}

}  // namespace cae
