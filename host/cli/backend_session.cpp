#include "backend_session.hpp"

#include <ostream>

namespace cae::cli {

BackendSession open_backend_session(const po::variables_map& vm, std::ostream& log) {
  BackendSession session;
  session.registry = discover_backends(vm);
  print_discovery_warnings(session.registry);
  session.backend = &select_backend(session.registry, vm);
  session.context = std::make_unique<Context>(session.backend->table(), vm["device"].as<int>(),
                                              vm["threads"].as<int>());
  session.device = session.context->device_info();
  log << "backend " << session.backend->name << " on " << session.device.name << " ("
      << precision_name(session.device.precision) << ")\n";
  return session;
}

}  // namespace cae::cli
