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
  const cae_backend_table* table = nullptr;  // valid until unload_plugin_libraries()
};

struct LoadOutcome {
  bool ok = false;
  LoadedPlugin plugin;     // when ok
  std::string rejection;   // when !ok: "not a plugin: ...", "missing entry symbol ...", ...
};

// Never throws. Libraries that load stay loaded until unload_plugin_libraries().
LoadOutcome load_plugin_file(const std::string& path);

// Unloads every library load_plugin_file loaded (a library marked NODELETE,
// such as the cpu backend's, stays). Only for a command's end, once no
// registry, table, context or tensor of any backend is left, so that the
// libraries' own teardown runs at a moment the command chooses and times.
// The CUDA driver keeps the device's primary context past the unloading:
// tearing that down is the process's exit (docs/PERF.md).
void unload_plugin_libraries();

}  // namespace cae
