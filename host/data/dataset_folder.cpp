#include "data/dataset_folder.hpp"

#include <cstdio>
#include <sstream>

#include "data/data_error.hpp"
#include "data/data_file.hpp"
#include "io/display_name.hpp"

namespace cae {

namespace fs = std::filesystem;

fs::path dataset_folder(const std::string& path, const char* subdirectory,
                        const std::function<bool(const fs::path&)>& holds, const std::string& format,
                        const std::string& files) {
  std::error_code error;
  if (!fs::is_directory(path, error)) {
    throw DataError(format + " directory " + path +
                    (fs::exists(path, error) ? " is not a directory" : " does not exist"));
  }
  if (holds(path)) return path;
  if (holds(fs::path(path) / subdirectory)) return fs::path(path) / subdirectory;
  throw DataError("missing " + format + " files: no " + files + " in " + path + " or " +
                  (fs::path(path) / subdirectory).string());
}

std::vector<std::string> read_names_file(const fs::path& path, size_t expected,
                                         const std::string& format, NameCount count) {
  std::error_code missing;
  if (!fs::exists(fs::symlink_status(path, missing))) {
    throw DataError("missing " + format + " class names file " + path.string());
  }
  const UniqueFile file = open_data_file(path.string());  // a FIFO or device is refused here
  std::string text(1 << 20, '\0');  // class names: a bounded read
  text.resize(std::fread(text.data(), 1, text.size(), file.get()));
  std::istringstream in(text);
  std::vector<std::string> names;
  std::string line;
  const bool all = count == NameCount::kAtLeast;
  for (size_t number = 1; (all || names.size() < expected) && std::getline(in, line); ++number) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty()) continue;
    // The names end up in report.json, figures and messages: refused here,
    // not when the report is written after the work.
    const std::string problem = display_name_problem(line);
    if (!problem.empty()) {
      throw DataError(path.string() + " line " + std::to_string(number) + ": the class name " +
                      problem);
    }
    names.push_back(line);
  }
  if (all && names.size() < expected) {
    throw DataError(path.string() + " names " + std::to_string(names.size()) +
                    " classes, but the labels go up to " + std::to_string(expected - 1));
  }
  if (!all && names.size() != expected) {
    throw DataError(path.string() + " names " + std::to_string(names.size()) + " classes, not " +
                    std::to_string(expected));
  }
  return names;
}

}  // namespace cae
