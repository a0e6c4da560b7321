// Discovery of backends and selection of one.
//
// Search order (first match of a name wins; a later duplicate is reported):
//   1. --backend PATH.so    (explicit files)
//   2. --plugin-dir DIR     (repeatable, in order)
//   3. CAE_PLUGIN_PATH      (colon-separated folders)
//   4. <exe dir>/../lib/cae/plugins
//   5. the build tree's plugin folder (compiled in; searched only by programs
//      that run from inside that build tree, never by an installed copy)
// The current directory is never searched unless named.
#pragma once

#include <cae/backend.h>

#include <string>
#include <vector>

#include "certification.hpp"
#include "plugin_file.hpp"

namespace cae {

struct DiscoveryOptions {
  std::vector<std::string> explicit_files;  // from --backend when it names a path
  std::vector<std::string> plugin_dirs;     // from --plugin-dir
  bool use_environment = true;              // read CAE_PLUGIN_PATH
  bool use_default_dirs = true;             // <exe>/../lib/cae/plugins and the build tree
};

// One file the search looked at, for `cae backends -v`.
struct ConsideredFile {
  std::string path;
  std::string origin;     // "--backend", "--plugin-dir", "CAE_PLUGIN_PATH", "install", "build tree"
  bool accepted = false;
  std::string rejection;  // why not, when !accepted
};

// A backend found by discovery: its table plus what probe said.
struct BackendRecord {
  LoadedPlugin plugin;
  std::string name;  // from the table
  std::string origin;
  bool available = false;
  int32_t priority = 0;
  int32_t device_count = 0;  // probe's: devices (or logical CPU contexts) it can use
  std::string unavailable_reason;
  // probe returned an error status: a broken backend (the header requires
  // probe to succeed and report "cannot run here" through available = 0).
  bool probe_failed = false;
  // The table's struct_size disagrees with the size of the minor it declares
  // (empty when they agree or the minor is newer than this host's).
  std::string table_warning;
  // What cae-conformance recorded for this exact file (certification.hpp).
  Certification certification;
  const cae_backend_table& table() const { return *plugin.table; }
};

class Registry {
 public:
  // Never throws for bad files: they are recorded as rejected.
  static Registry discover(const DiscoveryOptions& options);

  const std::vector<BackendRecord>& backends() const { return backends_; }
  const std::vector<ConsideredFile>& considered() const { return considered_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Worth knowing but not worth a warning on every command, for `-v`: a
  // backend shadowed by the file the user named with --backend, tables whose
  // struct_size does not fit their minor.
  const std::vector<std::string>& notices() const { return notices_; }
  // Folders searched, in order, as (path, origin).
  const std::vector<std::pair<std::string, std::string>>& searched_dirs() const {
    return searched_dirs_;
  }

  // The available, certified backend of highest priority, or nullptr.
  const BackendRecord* default_backend() const;
  // The available, uncertified backend of highest priority that outranks
  // `chosen`, or nullptr: the one a default choice passed over.
  const BackendRecord* uncertified_above(const BackendRecord& chosen) const;

  // `spec` is a backend name (case-insensitive), a path to a .so (already in
  // explicit_files), or empty for default_backend(). A named backend may be
  // uncertified (the caller warns).
  // Throws std::runtime_error with a one-line message listing the choices
  // when nothing matches or the chosen backend is unavailable.
  const BackendRecord& select(const std::string& spec) const;

  // Reads the certification record of backend `name` again (after
  // cae-conformance ran on it); nothing for a name not found.
  void reread_certification(const std::string& name);

  const BackendRecord* find(const std::string& name) const;  // case-insensitive, or nullptr
  // What `spec` (a name, or a path to a loaded .so) names, available or
  // not, or nullptr: select() without its checks.
  const BackendRecord* named(const std::string& spec) const;

 private:
  std::vector<BackendRecord> backends_;
  std::vector<ConsideredFile> considered_;
  std::vector<std::string> warnings_;
  std::vector<std::string> notices_;
  std::vector<std::pair<std::string, std::string>> searched_dirs_;
};

// The exact table size of a minor of this host's major, or 0 for a minor this
// host does not know (a newer one: its table may be any size >= the minimum).
size_t table_size_of_minor(uint32_t minor);

// "" when struct_size fits the declared minor, else a one-line explanation.
std::string table_size_mismatch(const cae_backend_table& table);

// True when a --backend value names a file (has a '/' or ends in .so) rather
// than a backend name.
bool names_a_backend_file(const std::string& spec);

// Directory of the running executable (for <exe>/../lib/cae/plugins).
std::string executable_dir();

}  // namespace cae
