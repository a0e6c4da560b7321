// Opens the backend a command asked for: discovery, selection, a context,
// and one log line saying what runs where.
#pragma once

#include <iosfwd>
#include <memory>

#include "backend_options.hpp"
#include "plugin/context.hpp"

namespace cae::cli {

struct BackendSession {
  Registry registry;
  const BackendRecord* backend = nullptr;
  std::unique_ptr<Context> context;
  DeviceInfo device;
};

BackendSession open_backend_session(const po::variables_map& vm, std::ostream& log);

}  // namespace cae::cli
