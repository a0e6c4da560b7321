#include "backend_session.hpp"

#include <ostream>

namespace cae::cli {

BackendSession select_backend_session(const po::variables_map& vm) {
  BackendSession session;
  session.registry = discover_backends(vm);
  print_discovery_warnings(session.registry);
  session.backend = &select_backend(session.registry, vm);
  return session;
}

void start_backend_session(BackendSession& session, const po::variables_map& vm, std::ostream& log) {
  session.context = std::make_unique<Context>(session.backend->table(), vm["device"].as<int>(),
                                              vm["threads"].as<int>());
  session.device = session.context->device_info();
  log << "backend " << session.backend->name << " on " << session.device.name << " ("
      << precision_name(session.device.precision) << ")\n";
}

BackendSession open_backend_session(const po::variables_map& vm, std::ostream& log) {
  BackendSession session = select_backend_session(vm);
  start_backend_session(session, vm, log);
  return session;
}

}  // namespace cae::cli
