#include "plugin_file.hpp"

#include <dlfcn.h>

#include <boost/dll/shared_library.hpp>
#include <filesystem>
#include <vector>

namespace cae {
namespace {

// Libraries stay loaded until a command unloads them at its end
// (unload_plugin_libraries), never by a static destructor: tables, strings and
// code of a backend must stay valid until then, and unloading CUDA-linked
// libraries during exit is fragile. The vector is leaked on purpose so no
// static destructor runs before contexts die.
std::vector<boost::dll::shared_library>& loaded_libraries() {
  static auto* libraries = new std::vector<boost::dll::shared_library>();
  return *libraries;
}

// Boost.DLL reports a failed load as a generic error code; dlerror() has the
// text a user needs ("wrong ELF class", "undefined symbol: ..."), so ask again.
std::string dlopen_error_text(const std::string& path) {
  dlerror();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle) {
    dlclose(handle);
    return "unknown error";
  }
  const char* text = dlerror();
  return text ? text : "unknown error";
}

// Members the host cannot work without; ops may be NULL (= unsupported).
const char* first_missing_required_member(const cae_backend_table& t) {
  if (!t.probe) return "probe";
  if (!t.create) return "create";
  if (!t.destroy) return "destroy";
  if (!t.last_error) return "last_error";
  if (!t.device_info) return "device_info";
  if (!t.tensor_alloc) return "tensor_alloc";
  if (!t.tensor_free) return "tensor_free";
  if (!t.tensor_upload) return "tensor_upload";
  if (!t.tensor_download) return "tensor_download";
  if (!t.synchronize) return "synchronize";
  return nullptr;
}

LoadOutcome reject(std::string reason) {
  LoadOutcome outcome;
  outcome.rejection = std::move(reason);
  return outcome;
}

}  // namespace

LoadOutcome load_plugin_file(const std::string& path_text) {
  std::error_code fs_error;
  std::filesystem::path path = std::filesystem::absolute(path_text, fs_error);
  if (fs_error) path = path_text;
  if (!std::filesystem::is_regular_file(path, fs_error)) {
    return reject("not a file");
  }

  boost::dll::shared_library library;
  try {
    library.load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const std::exception&) {
    const std::string text = dlopen_error_text(path.string());
    // The file may be a fine backend the process had no memory to map
    // (`ulimit -v`): that ends the run, rather than making the backend
    // "unknown" or silently choosing another.
    if (text.find("annot allocate memory") != std::string::npos ||
        text.find("failed to map segment") != std::string::npos ||
        text.find("cannot map zero-fill pages") != std::string::npos) {
      throw std::runtime_error("out of memory: cannot load the backend " + path.string() + ": " +
                               text + " (check `ulimit -v`)");
    }
    return reject("not a plugin: cannot be loaded: " + text);
  }

  // dlsym through the native handle so that a missing symbol keeps dlerror's text.
  dlerror();
  void* entry_address = dlsym(library.native(), CAE_BACKEND_ENTRY_SYMBOL);
  if (!entry_address) {
    const char* text = dlerror();
    return reject(std::string("not a cae backend: missing entry symbol " CAE_BACKEND_ENTRY_SYMBOL
                              ": ") +
                  (text ? text : "symbol is NULL"));
  }
  auto entry = reinterpret_cast<cae_backend_entry_fn>(entry_address);
  const cae_backend_table* table = entry(CAE_ABI_MAJOR);
  if (!table) {
    return reject("ABI major mismatch: the backend has no table for the host's ABI major " +
                  std::to_string(CAE_ABI_MAJOR));
  }
  // The header (struct_size, abi_major, abi_minor) has the same layout in every
  // major, so it can be read before the major is known to match.
  if (table->abi_major != CAE_ABI_MAJOR) {
    return reject("ABI major mismatch: backend speaks " + std::to_string(table->abi_major) + "." +
                  std::to_string(table->abi_minor) + ", host speaks " +
                  std::to_string(CAE_ABI_MAJOR) + "." + std::to_string(CAE_ABI_MINOR));
  }
  if (table->struct_size < CAE_BACKEND_TABLE_MIN_SIZE) {
    return reject("table too small: " + std::to_string(table->struct_size) +
                  " bytes, the host needs at least " + std::to_string(CAE_BACKEND_TABLE_MIN_SIZE) +
                  " (ABI " + std::to_string(CAE_ABI_MAJOR) + ".0)");
  }
  if (!table->name || !table->name[0]) return reject("table has no backend name");
  if (const char* missing = first_missing_required_member(*table)) {
    return reject(std::string("required member '") + missing + "' is NULL");
  }

  loaded_libraries().push_back(std::move(library));
  LoadOutcome outcome;
  outcome.ok = true;
  outcome.plugin.path = path.string();
  outcome.plugin.table = table;
  return outcome;
}

void unload_plugin_libraries() {
  // Last loaded first: a library is never unloaded before one loaded after it.
  std::vector<boost::dll::shared_library>& libraries = loaded_libraries();
  while (!libraries.empty()) libraries.pop_back();
}

}  // namespace cae
