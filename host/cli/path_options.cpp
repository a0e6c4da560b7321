#include "path_options.hpp"

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <filesystem>

#include "io/confined_folder.hpp"
#include "io/display_name.hpp"
#include "io/io_error.hpp"

namespace cae::cli {

namespace {

// The system's limits: a name of at most NAME_MAX bytes, a path of fewer
// than PATH_MAX (which counts the terminating NUL).
constexpr size_t kMaxNameBytes = NAME_MAX;
constexpr size_t kMaxPathBytes = PATH_MAX - 1;

// What an atomic write appends to a file's name for its temporary
// (io/atomic_file.hpp); longer than the lock's ".lock".
std::string temporary_suffix() { return ".tmp." + std::to_string(static_cast<long>(::getpid())); }

std::string quoted(const std::string& path) { return "'" + text_excerpt(path) + "'"; }

// `path` + `created` (the part cae appends, empty for the path itself)
// against NAME_MAX for each name and PATH_MAX for the whole.
void check_length(const std::string& option, const std::string& path, const std::string& created) {
  const std::string full = path + created;
  const std::string with = created.empty() ? std::string()
                                           : " with the file cae creates there, " +
                                                 quoted(std::filesystem::path(full).filename().string());
  size_t start = 0;
  while (start <= full.size()) {
    size_t end = full.find('/', start);
    if (end == std::string::npos) end = full.size();
    if (end - start > kMaxNameBytes) {
      throw UsageError(option + " " + quoted(path) + " holds a name of " +
                       std::to_string(end - start) + " bytes" + with +
                       "; a file or folder name is at most " + std::to_string(kMaxNameBytes) +
                       " bytes (NAME_MAX): choose a shorter one");
    }
    start = end + 1;
  }
  if (full.size() > kMaxPathBytes) {
    throw UsageError(option + " " + quoted(path) + " is " + std::to_string(path.size()) +
                     " bytes" +
                     (created.empty() ? std::string()
                                      : ", " + std::to_string(full.size()) + with) +
                     "; a path is at most " + std::to_string(kMaxPathBytes) +
                     " bytes (PATH_MAX): choose a shorter one");
  }
}

}  // namespace

void check_path_text(const std::string& option, const std::string& path) {
  for (size_t i = 0; i < path.size();) {
    const size_t length = utf8_sequence_length(path, i);
    if (length == 0) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(path[i]));
      throw UsageError(option + " " + quoted(path) + " is not UTF-8 (byte " + byte + " at index " +
                       std::to_string(i) +
                       "); cae records paths in JSON (checkpoints, features.json, reports), "
                       "which holds only UTF-8: rename it");
    }
    i += length;
  }
  check_length(option, path, "");
}

void check_created_paths(const std::string& option, const std::string& dir,
                         const std::vector<std::string>& created) {
  for (const std::string& name : created) check_length(option, dir, "/" + name + temporary_suffix());
  for (const std::string& name : created) {
    const std::string path = (std::filesystem::path(dir) / name).string();
    if (const auto link = link_leaving(dir, path)) {
      throw UsageError(option + ": " + leaving_folder_message(path, dir, *link));
    }
  }
}

void check_created_file(const std::string& option, const std::string& path) {
  check_length(option, path, temporary_suffix());
}

po::typed_value<std::string>* path_value(const std::string& option) {
  return po::value<std::string>()->notifier(
      [option](const std::string& path) { check_path_text(option, path); });
}

po::typed_value<std::string>* output_file_value(const std::string& option) {
  return po::value<std::string>()->notifier([option](const std::string& path) {
    check_path_text(option, path);
    check_created_file(option, path);
  });
}

po::typed_value<std::vector<std::string>>* path_values(const std::string& option) {
  return po::value<std::vector<std::string>>()->notifier(
      [option](const std::vector<std::string>& paths) {
        for (const std::string& path : paths) check_path_text(option, path);
      });
}

}  // namespace cae::cli
