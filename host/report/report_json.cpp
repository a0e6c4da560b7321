#include "report/report_json.hpp"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "io/contained_path.hpp"
#include "io/io_error.hpp"
#include "io/strict_json.hpp"
#include "report/text_file.hpp"

namespace cae {
namespace {

using nlohmann::json;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

json number(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

double number_from(const json& value) { return value.is_null() ? kNaN : value.get<double>(); }

// A count: only JSON integers, never a float converted (out of range it would
// be undefined behaviour).
std::int64_t count_from(const json& value) {
  if (!value.is_number_integer()) throw std::runtime_error("a count is not a whole number: " + json_excerpt(value));
  return value.get<std::int64_t>();
}

json pairs(const std::vector<std::pair<std::string, std::string>>& rows) {
  json list = json::array();
  for (const auto& [key, value] : rows) list.push_back({key, value});
  return list;
}

std::vector<std::pair<std::string, std::string>> pairs_from(const json& list) {
  std::vector<std::pair<std::string, std::string>> rows;
  for (const json& row : list)
    rows.emplace_back(row.at(0).get<std::string>(), row.at(1).get<std::string>());
  return rows;
}

}  // namespace

std::string report_json(const ReportData& data) {
  json timings = json::array();
  for (const auto& [stage, seconds] : data.stage_timings)
    timings.push_back({stage, number(seconds)});
  json per_class = json::array();
  for (double v : data.per_class_accuracy) per_class.push_back(number(v));
  json doc = {{"format", "cae-report"},
              {"version", kReportJsonVersion},
              {"title", data.title},
              {"backend", data.backend},
              {"device", data.device},
              {"settings", pairs(data.settings)},
              {"summary", pairs(data.summary)},
              {"stage_timings", timings},
              {"accuracy", number(data.accuracy)},
              {"per_class_accuracy", per_class},
              {"per_class_support", data.per_class_support},
              {"class_names", data.class_names},
              {"files",
               {{"confusion_png", data.confusion_png},
                {"confusion_csv", data.confusion_csv},
                {"predictions_csv", data.predictions_csv},
                {"reconstruction_png", data.reconstruction_png},
                {"loss_curve_png", data.loss_curve_png},
                {"per_class_png", data.per_class_png}}}};
  return doc.dump(2) + "\n";
}

ReportData parse_report_json(const std::string& text) {
  json doc;
  try {
    doc = parse_json_text(text);
  } catch (const JsonRefused& refused) {
    throw std::runtime_error(std::string("not JSON cae reads: ") + refused.what());
  }
  if (!doc.is_object()) throw std::runtime_error("not a JSON object");
  const auto format = doc.find("format");
  if (format == doc.end() || !format->is_string() || *format != "cae-report") {
    throw std::runtime_error("not a cae report (its \"format\" is not \"cae-report\")");
  }
  // Compared as a whole number: a fractional or huge version must not be
  // converted to int (undefined behaviour), only refused.
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() ||
      version->get<std::int64_t>() != kReportJsonVersion) {
    throw std::runtime_error("report format version " +
                             (version == doc.end() ? std::string("(none)") : json_excerpt(*version)) +
                             ", this cae reads version " + std::to_string(kReportJsonVersion));
  }
  try {
    ReportData data;
    data.title = doc.at("title").get<std::string>();
    data.backend = doc.at("backend").get<std::string>();
    data.device = doc.at("device").get<std::string>();
    data.settings = pairs_from(doc.at("settings"));
    data.summary = pairs_from(doc.at("summary"));
    for (const json& stage : doc.at("stage_timings")) {
      data.stage_timings.emplace_back(stage.at(0).get<std::string>(), number_from(stage.at(1)));
    }
    data.accuracy = number_from(doc.at("accuracy"));
    for (const json& v : doc.at("per_class_accuracy"))
      data.per_class_accuracy.push_back(number_from(v));
    for (const json& v : doc.at("per_class_support")) data.per_class_support.push_back(count_from(v));
    data.class_names = doc.at("class_names").get<std::vector<std::string>>();
    const json& files = doc.at("files");
    // Each is written (by `cae report`) inside the run folder: one that could
    // point outside it is refused, not followed. Empty means "no such figure".
    const auto file_name = [&files](const char* key) {
      std::string name = files.at(key).get<std::string>();
      if (!name.empty() && !stays_inside_folder(name)) {
        throw std::runtime_error(outside_folder_message(std::string("files.") + key, name));
      }
      return name;
    };
    data.confusion_png = file_name("confusion_png");
    data.confusion_csv = file_name("confusion_csv");
    data.predictions_csv = file_name("predictions_csv");
    data.reconstruction_png = file_name("reconstruction_png");
    data.loss_curve_png = file_name("loss_curve_png");
    data.per_class_png = file_name("per_class_png");
    return data;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("malformed report: ") + json_error_text(e.what()));
  }
}

ReportData read_report_json(const std::filesystem::path& path) {
  std::string text = read_text_file(path);
  try {
    return parse_report_json(text);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
}

}  // namespace cae
