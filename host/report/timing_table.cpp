#include "report/timing_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/stopwatch.hpp"

namespace cae {
namespace {

std::string format_seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds);
  return text;
}

std::string format_share(double seconds, double total) {
  if (!(total > 0.0) || !std::isfinite(seconds)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * seconds / total);
  return text;
}

std::string pad_right(const std::string& text, std::size_t width) {
  return text + std::string(width > text.size() ? width - text.size() : 0, ' ');
}

std::string pad_left(const std::string& text, std::size_t width) {
  return std::string(width > text.size() ? width - text.size() : 0, ' ') + text;
}

}  // namespace

std::string format_timing_table(const StageTimings& stages) {
  double total = 0.0;
  for (const auto& stage : stages) {
    if (std::isfinite(stage.second)) total += stage.second;
  }

  struct Row {
    std::string stage, seconds, share;
  };
  std::vector<Row> rows;
  rows.push_back({"stage", "seconds", "share"});
  for (const auto& [name, seconds] : stages) {
    rows.push_back({name, format_seconds(seconds), format_share(seconds, total)});
  }
  rows.push_back({"total", format_seconds(total), total > 0.0 ? "100.0%" : "-"});

  std::size_t stage_width = 0, seconds_width = 0, share_width = 0;
  for (const Row& row : rows) {
    stage_width = std::max(stage_width, row.stage.size());
    seconds_width = std::max(seconds_width, row.seconds.size());
    share_width = std::max(share_width, row.share.size());
  }

  auto line = [&](const Row& row) {
    return pad_right(row.stage, stage_width) + "  " + pad_left(row.seconds, seconds_width) + "  " +
           pad_left(row.share, share_width) + "\n";
  };
  std::string rule(stage_width + seconds_width + share_width + 4, '-');
  std::string table = line(rows.front()) + rule + "\n";
  for (std::size_t i = 1; i + 1 < rows.size(); ++i) table += line(rows[i]);
  table += rule + "\n" + line(rows.back());
  return table;
}

void account_the_rest(StageTimings& timings) {
  if (timings.empty() || timings.back().first != "other") timings.emplace_back("other", 0.0);
  double accounted = 0;
  for (size_t i = 0; i + 1 < timings.size(); ++i) accounted += timings[i].second;
  timings.back().second = std::max(0.0, seconds_since_program_start() - accounted);
}

}  // namespace cae
