#include "data/cifar_check.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "data/cifar_files.hpp"

namespace cae {

namespace {

// Streams every file, so checking holds a few thousand records at a time
// whatever the size of the files.
CifarSplitSummary check_split(const std::vector<std::string>& files) {
  CifarSplitSummary summary;
  for (const std::string& file : files) {
    count_labels(file, summary.per_class, summary.images);
    summary.files.push_back(file);
  }
  return summary;
}

std::string file_names(const std::vector<std::string>& paths) {
  std::string names;
  for (const std::string& path : paths) {
    names += (names.empty() ? "" : ", ") + std::filesystem::path(path).filename().string();
  }
  return names;
}

}  // namespace

CifarSummary check_cifar(const std::string& dir) {
  const CifarFiles files = locate_cifar(dir);
  CifarSummary summary;
  summary.dir = files.dir;
  summary.class_names = read_class_names(files.meta);
  summary.train = check_split(files.train);
  summary.test = check_split({files.test});
  return summary;
}

std::string describe(const CifarSummary& summary) {
  std::string text = "CIFAR-10 data in " + summary.dir + "\n";
  text += "train: " + std::to_string(summary.train.images) + " images (" +
          file_names(summary.train.files) + ")\n";
  text += "test:  " + std::to_string(summary.test.images) + " images (" +
          file_names(summary.test.files) + ")\n";
  size_t width = 5;
  for (const std::string& name : summary.class_names) width = std::max(width, name.size());
  width = std::min<size_t>(width, 100);  // keeps every row within the line buffer
  char line[256];
  std::snprintf(line, sizeof line, "%-3s %-*s %8s %8s\n", "#", static_cast<int>(width), "class",
                "train", "test");
  text += line;
  for (size_t c = 0; c < summary.class_names.size() && c < cifar::kNumClasses; ++c) {
    std::snprintf(line, sizeof line, "%-3zu %-*s %8zu %8zu\n", c, static_cast<int>(width),
                  summary.class_names[c].substr(0, 100).c_str(), summary.train.per_class[c],
                  summary.test.per_class[c]);
    text += line;
  }
  return text;
}

}  // namespace cae
