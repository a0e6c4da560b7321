#include "backend_session.hpp"

#include <iostream>

#include "device_list.hpp"
#include "first_use_certification.hpp"
#include "plugin/plugin_file.hpp"

namespace cae::cli {

BackendSession select_backend_session(const po::variables_map& vm) {
  BackendSession session;
  session.registry = discover_backends(vm);
  print_discovery_warnings(session.registry);
  if (vm.count("certify-on-first-use")) certify_default_on_first_use(session.registry, vm, std::cerr);
  session.backend = &select_backend(session.registry, vm);
  session.options = chosen_backend_options(*session.backend, vm);
  return session;
}

void start_backend_session(BackendSession& session, const po::variables_map& vm, std::ostream& log) {
  const std::vector<int> devices =
      requested_devices(vm, session.backend->device_count, session.backend->name);
  const int threads = vm["threads"].as<int>();
  session.context =
      std::make_unique<Context>(session.backend->table(), devices[0], threads, session.options);
  for (size_t i = 1; i < devices.size(); ++i) {
    session.more_contexts.push_back(std::make_unique<Context>(session.backend->table(), devices[i],
                                                              threads, session.options));
  }
  session.device = session.context->device_info();
  log << "backend " << session.backend->name << " on " << session.device.name << " ("
      << precision_name(session.device.precision) << ")";
  if (devices.size() > 1) log << ", " << devices.size() << " devices";
  if (!session.options.empty()) log << ", options " << options_text(session.options);
  log << "\n";
}

BackendSession open_backend_session(const po::variables_map& vm, std::ostream& log) {
  BackendSession session = select_backend_session(vm);
  start_backend_session(session, vm, log);
  return session;
}

void end_backend_session(BackendSession& session) {
  session.more_contexts.clear();
  session.context.reset();
  session.backend = nullptr;
  session.registry = Registry();
  unload_plugin_libraries();
}

BackendOptionValues BackendSession::options_in_effect() const {
  return backend ? cae::options_in_effect(backend->table(), options) : BackendOptionValues{};
}

void add_backend_options_setting(const BackendSession& session, ReportData& report) {
  const BackendOptionValues options = session.options_in_effect();
  if (!options.empty()) report.settings.emplace_back("backend options", options_text(options));
}

std::vector<Context*> BackendSession::contexts() const {
  std::vector<Context*> all{context.get()};
  for (const auto& more : more_contexts) all.push_back(more.get());
  return all;
}

}  // namespace cae::cli
