// The backends of this build tree (the folder CAE_TEST_PLUGIN_DIR, which a
// suite's CMake defines), found without the environment or the default
// folders, so that a test runs on the plugins it was built with.
#pragma once

#include "plugin/registry.hpp"

namespace cae::test {

inline const Registry& build_tree_registry() {
  static const Registry registry = [] {
    DiscoveryOptions options;
    options.plugin_dirs = {CAE_TEST_PLUGIN_DIR};
    options.use_environment = false;
    options.use_default_dirs = false;
    return Registry::discover(options);
  }();
  return registry;
}

}  // namespace cae::test
