#include "data/data_check.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace cae {
namespace {

SplitCount count_split(const std::string& name, const ImageSet& images, size_t classes) {
  SplitCount count;
  count.name = name;
  count.images = images.size();
  if (classes > 0) {
    count.per_class.assign(classes, 0);
    for (uint8_t label : images.labels) ++count.per_class.at(label);
  }
  return count;
}

}  // namespace

DataSummary check_data(const std::string& path, DataOptions options) {
  options.memory_cap_bytes = 0;
  options.max_train = options.max_test = 0;
  DataSplits data = load_data(path, options);
  if (data.format == DataFormat::kStl10 && !options.unlabelled) {
    std::error_code error;
    if (std::filesystem::is_regular_file(std::filesystem::path(data.location) / "unlabeled_X.bin", error)) {
      options.unlabelled = true;
      data = load_data(path, options);
    }
  }
  DataSummary summary;
  summary.format = data.format;
  summary.location = data.location;
  summary.channels = data.train.channels;
  summary.side = data.train.side;
  summary.class_names = data.labelled ? data.class_names : std::vector<std::string>{};
  const size_t classes = summary.class_names.size();
  summary.splits.push_back(count_split("train", data.train, classes));
  summary.splits.push_back(count_split("test", data.test, classes));
  if (data.unlabelled.size() > 0) summary.splits.push_back(count_split("unlabelled", data.unlabelled, 0));
  return summary;
}

std::string describe(const DataSummary& summary) {
  std::string text = std::string(data_format_name(summary.format)) + " data in " +
                     summary.location + ": " + std::to_string(summary.side) + "x" +
                     std::to_string(summary.side) + " images, " +
                     std::to_string(summary.channels) + (summary.channels == 1 ? " channel, " : " channels, ") +
                     (summary.class_names.empty() ? std::string("unlabelled")
                                                  : std::to_string(summary.class_names.size()) + " classes") +
                     "\n";
  for (const SplitCount& split : summary.splits) {
    text += split.name + ": " + std::to_string(split.images) + " images\n";
  }
  if (summary.class_names.empty()) return text;
  size_t width = 5;
  for (const std::string& name : summary.class_names) width = std::max(width, name.size());
  width = std::min<size_t>(width, 100);  // keeps every row within the line buffer
  char line[256];
  std::snprintf(line, sizeof line, "%-3s %-*s %8s %8s\n", "#", int(width), "class", "train", "test");
  text += line;
  for (size_t c = 0; c < summary.class_names.size(); ++c) {
    std::snprintf(line, sizeof line, "%-3zu %-*s %8zu %8zu\n", c, int(width),
                  summary.class_names[c].substr(0, 100).c_str(), summary.splits[0].per_class[c],
                  summary.splits[1].per_class[c]);
    text += line;
  }
  return text;
}

}  // namespace cae
