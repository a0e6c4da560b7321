#include "registry.hpp"

#include "backend_error.hpp"
#include "certification.hpp"

#include <algorithm>
#include <boost/dll/runtime_symbol_info.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <stdexcept>

namespace cae {
namespace fs = std::filesystem;

namespace {

// A plugin file as load_plugin_file names it (absolute, as written), so a
// file is recognised however the user wrote its path.
std::string absolute_path(const std::string& path) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  return ec ? path : absolute.string();
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Whether the running program lives inside the build tree that compiled it.
// Only then is the build tree's plugin folder searched: an installed copy
// (cmake --install, a package) on the build machine would otherwise list
// that build's plugins beside its own, or warn about every one it also has.
bool runs_in_build_tree() {
  fs::path build_root = CAE_BUILD_PLUGIN_DIR;
  for (const auto& part : fs::path(CAE_PLUGIN_SUBDIR)) {
    (void)part;
    build_root = build_root.parent_path();
  }
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(build_root, ec);
  if (ec) return false;
  const fs::path program_dir = fs::weakly_canonical(executable_dir(), ec);
  if (ec) return false;
  return std::mismatch(root.begin(), root.end(), program_dir.begin(), program_dir.end()).first ==
         root.end();
}

// Folders to search, in order, with where each came from; duplicates removed.
std::vector<std::pair<std::string, std::string>> search_dirs(const DiscoveryOptions& options) {
  std::vector<std::pair<std::string, std::string>> dirs;
  for (const auto& dir : options.plugin_dirs) dirs.emplace_back(dir, "--plugin-dir");
  if (options.use_environment) {
    if (const char* env = std::getenv("CAE_PLUGIN_PATH")) {
      std::stringstream parts(env);
      std::string dir;
      while (std::getline(parts, dir, ':')) {
        if (!dir.empty()) dirs.emplace_back(dir, "CAE_PLUGIN_PATH");
      }
    }
  }
  if (options.use_default_dirs) {
    dirs.emplace_back((fs::path(executable_dir()) / ".." / CAE_PLUGIN_SUBDIR).string(), "install");
    if (runs_in_build_tree()) dirs.emplace_back(CAE_BUILD_PLUGIN_DIR, "build tree");
  }
  std::set<std::string> seen;
  std::vector<std::pair<std::string, std::string>> unique;
  for (auto& [dir, origin] : dirs) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(dir, ec);
    std::string key = ec ? dir : canonical.string();
    if (seen.insert(key).second) unique.emplace_back(key, origin);
  }
  return unique;
}

// Shared objects in a folder, sorted so discovery order does not depend on the
// file system. Everything named *.so or *.so.N counts as a candidate, except
// the certification records kept beside plugins (certification.hpp).
std::vector<std::string> candidate_files(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    bool shared_object = name.size() > 3 && (name.compare(name.size() - 3, 3, ".so") == 0 ||
                                              name.find(".so.") != std::string::npos);
    if (shared_object && !is_certification_record(name)) files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void probe_into(BackendRecord& record) {
  cae_probe_result result{};
  result.struct_size = sizeof result;
  cae_status status = record.table().probe(&result);
  if (status != CAE_STATUS_OK) {
    record.available = false;
    record.probe_failed = true;
    const char* message = record.table().last_error(nullptr);
    record.unavailable_reason = std::string("probe failed: ") + status_name(status) +
                                (message && *message ? std::string(": ") + message : "");
    return;
  }
  result.reason[sizeof result.reason - 1] = '\0';
  record.available = result.available != 0;
  record.priority = result.priority;
  record.device_count = record.available ? std::max<int32_t>(result.device_count, 1) : 0;
  record.unavailable_reason = record.available ? "" : result.reason;
  if (!record.available && record.unavailable_reason.empty()) {
    record.unavailable_reason = "the backend gave no reason";
  }
}

std::string names_of(const std::vector<BackendRecord>& backends, bool available) {
  std::string list;
  for (const auto& b : backends) {
    if (b.available != available) continue;
    if (!list.empty()) list += ", ";
    list += b.name;
  }
  return list.empty() ? "none" : list;
}

Certification certification_of_record(const BackendRecord& record) {
  const cae_backend_table& table = record.table();
  return certification_of(record.plugin.path, record.name, table.version ? table.version : "");
}

}  // namespace

size_t table_size_of_minor(uint32_t minor) {
  switch (minor) {
    case 0:
      return CAE_BACKEND_TABLE_SIZE_1_0;
    case 1:
      return CAE_BACKEND_TABLE_SIZE_1_1;
    case 2:
      return CAE_BACKEND_TABLE_SIZE_1_2;
    case 3:
      return CAE_BACKEND_TABLE_SIZE_1_3;
    case 4:
      return CAE_BACKEND_TABLE_SIZE_1_4;
    case 5:
      return CAE_BACKEND_TABLE_SIZE_1_5;
    case 6:
      return CAE_BACKEND_TABLE_SIZE_1_6;
    case 7:
      return CAE_BACKEND_TABLE_SIZE_1_7;
    case 8:
      return CAE_BACKEND_TABLE_SIZE_1_8;
    case 9:
      return CAE_BACKEND_TABLE_SIZE_1_9;
    case 10:
      return CAE_BACKEND_TABLE_SIZE_1_10;
    case 11:
      return CAE_BACKEND_TABLE_SIZE_1_11;
    case 12:
      return CAE_BACKEND_TABLE_SIZE_1_12;
    case 13:
      return CAE_BACKEND_TABLE_SIZE_1_13;
    default:
      return 0;
  }
}

std::string table_size_mismatch(const cae_backend_table& table) {
  if (table.abi_major != CAE_ABI_MAJOR) return "";
  const size_t expected = table_size_of_minor(table.abi_minor);
  if (expected == 0 || table.struct_size == expected) return "";
  return "table declares ABI " + std::to_string(table.abi_major) + "." +
         std::to_string(table.abi_minor) + " but its struct_size is " +
         std::to_string(table.struct_size) + " bytes, not the " + std::to_string(expected) +
         " bytes of a " + std::to_string(table.abi_major) + "." + std::to_string(table.abi_minor) +
         " table (was it built against another header?)";
}

bool names_a_backend_file(const std::string& spec) {
  return spec.find('/') != std::string::npos ||
         (spec.size() > 3 && spec.compare(spec.size() - 3, 3, ".so") == 0);
}

std::string executable_dir() {
  std::error_code ec;
  auto location = boost::dll::program_location(ec);
  if (ec) return ".";
  return location.parent_path().string();
}

Registry Registry::discover(const DiscoveryOptions& options) {
  Registry registry;
  auto consider = [&registry](const std::string& path, const std::string& origin) {
    ConsideredFile file{absolute_path(path), origin, false, ""};
    LoadOutcome outcome = load_plugin_file(path);
    if (!outcome.ok) {
      file.rejection = outcome.rejection;
      registry.considered_.push_back(file);
      return;
    }
    file.path = outcome.plugin.path;
    std::string name = outcome.plugin.table->name;
    if (const BackendRecord* first = registry.find(name)) {
      file.rejection = "duplicate backend '" + name + "': already provided by " + first->plugin.path;
      const std::string message = "backend '" + name + "' in " + file.path +
                                  " ignored: already provided by " + first->plugin.path;
      // The file named with --backend is the user's choice: that it shadows an
      // installed copy is no reason to warn on every command.
      if (first->origin == "--backend") {
        registry.notices_.push_back("note: " + message + " (named with --backend)");
      } else {
        registry.warnings_.push_back("warning: " + message);
      }
      registry.considered_.push_back(file);
      return;
    }
    file.accepted = true;
    registry.considered_.push_back(file);
    BackendRecord record;
    record.plugin = outcome.plugin;
    record.name = name;
    record.origin = origin;
    record.table_warning = table_size_mismatch(record.table());
    if (!record.table_warning.empty()) {
      registry.notices_.push_back("warning: backend '" + name + "' in " + file.path + ": " +
                                  record.table_warning);
    }
    probe_into(record);
    record.certification = certification_of_record(record);
    registry.backends_.push_back(std::move(record));
  };

  for (const auto& file : options.explicit_files) consider(file, "--backend");
  registry.searched_dirs_ = search_dirs(options);
  for (const auto& [dir, origin] : registry.searched_dirs_) {
    for (const auto& file : candidate_files(dir)) {
      // A file already taken explicitly is not looked at twice.
      bool already = std::any_of(registry.considered_.begin(), registry.considered_.end(),
                                 [&](const ConsideredFile& c) {
                                   return c.path == absolute_path(file);
                                 });
      if (!already) consider(file, origin);
    }
  }
  return registry;
}

void Registry::reread_certification(const std::string& name) {
  const std::string wanted = lower(name);
  for (auto& b : backends_) {
    if (lower(b.name) == wanted) b.certification = certification_of_record(b);
  }
}

const BackendRecord* Registry::find(const std::string& name) const {
  std::string wanted = lower(name);
  for (const auto& b : backends_) {
    if (lower(b.name) == wanted) return &b;
  }
  return nullptr;
}

const BackendRecord* Registry::named(const std::string& spec) const {
  if (!names_a_backend_file(spec)) return find(spec);
  const std::string wanted = absolute_path(spec);
  const BackendRecord* chosen = nullptr;
  for (const auto& b : backends_) {
    if (b.plugin.path == wanted) chosen = &b;
  }
  return chosen;
}

const BackendRecord* Registry::default_backend() const {
  // Only a certified backend may be chosen without being named: a plugin
  // dropped into a folder cannot take over by declaring a high priority.
  const BackendRecord* best = nullptr;
  for (const auto& b : backends_) {
    if (b.available && b.certification.certified && (!best || b.priority > best->priority)) {
      best = &b;
    }
  }
  return best;
}

const BackendRecord* Registry::uncertified_above(const BackendRecord& chosen) const {
  const BackendRecord* best = nullptr;
  for (const auto& b : backends_) {
    if (b.available && !b.certification.certified && b.priority > chosen.priority &&
        (!best || b.priority > best->priority)) {
      best = &b;
    }
  }
  return best;
}

const BackendRecord& Registry::select(const std::string& spec) const {
  if (spec.empty()) {
    if (const BackendRecord* best = default_backend()) return *best;
    if (names_of(backends_, true) == "none") {
      throw std::runtime_error("no available backend (found: " +
                               (backends_.empty() ? std::string("none")
                                                  : names_of(backends_, false) + " unavailable") +
                               "); run `cae backends -v` for details");
    }
    throw std::runtime_error("no certified backend to use by default (available but not "
                             "certified: " + names_of(backends_, true) +
                             "); certify one with `cae-conformance --backend NAME`, or name one "
                             "with --backend (see `cae backends`)");
  }
  const BackendRecord* chosen = named(spec);
  if (names_a_backend_file(spec)) {
    if (!chosen) {
      // Considered files are named as named() names them, so the loader's
      // reason for this very file is found however the path was written.
      const std::string wanted = absolute_path(spec);
      std::error_code ec;
      if (!fs::exists(wanted, ec)) {
        throw std::runtime_error("cannot use backend " + spec + ": no such file");
      }
      for (const auto& c : considered_) {
        if (c.path == wanted && !c.accepted) {
          throw std::runtime_error("cannot use backend " + spec +
                                   ": it exists but is not a loadable cae backend: " + c.rejection);
        }
      }
      throw std::runtime_error("cannot use backend " + spec + ": it was not loaded");
    }
  } else {
    if (!chosen) {
      throw std::runtime_error("unknown backend '" + spec + "'; available: " +
                               names_of(backends_, true) +
                               "; unavailable: " + names_of(backends_, false));
    }
  }
  if (!chosen->available) {
    throw std::runtime_error("backend '" + chosen->name + "' is unavailable here: " +
                             chosen->unavailable_reason);
  }
  return *chosen;
}

}  // namespace cae
