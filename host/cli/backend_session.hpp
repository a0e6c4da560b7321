// Opens the backend a command asked for: discovery, selection, a context,
// and one log line saying what runs where.
#pragma once

#include <iosfwd>
#include <memory>
#include <vector>

#include "backend_options.hpp"
#include "plugin/context.hpp"

namespace cae::cli {

struct BackendSession {
  Registry registry;
  const BackendRecord* backend = nullptr;
  std::unique_ptr<Context> context;  // the first device's
  std::vector<std::unique_ptr<Context>> more_contexts;  // further devices of --devices
  DeviceInfo device;

  // Every device's context, the first one first.
  std::vector<Context*> contexts() const;
};

BackendSession open_backend_session(const po::variables_map& vm, std::ostream& log);

}  // namespace cae::cli
