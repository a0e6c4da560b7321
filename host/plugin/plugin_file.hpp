// Loading one candidate file: open it with Boost.DLL (RTLD_NOW | RTLD_LOCAL),
// find the entry symbol, negotiate the ABI major and check the table. Every
// rejection carries a reason a user can act on (shown by `cae backends -v`).
#pragma once

#include <cae/backend.h>

#include <memory>
#include <string>

namespace cae {

struct LoadedPlugin {
  std::string path;                      // absolute path of the library
  const cae_backend_table* table = nullptr;  // valid while the library stays loaded (until exit)
};

struct LoadOutcome {
  bool ok = false;
  LoadedPlugin plugin;     // when ok
  std::string rejection;   // when !ok: "not a plugin: ...", "missing entry symbol ...", ...
};

// Never throws. Libraries that load stay loaded for the life of the process.
LoadOutcome load_plugin_file(const std::string& path);

}  // namespace cae
