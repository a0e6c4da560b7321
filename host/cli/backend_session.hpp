// Opens the backend a command asked for: discovery, selection, a context,
// and one log line saying what runs where.
#pragma once

#include <iosfwd>
#include <memory>
#include <vector>

#include "backend_options.hpp"
#include "plugin/context.hpp"
#include "report/html_report.hpp"

namespace cae::cli {

struct BackendSession {
  Registry registry;
  const BackendRecord* backend = nullptr;
  BackendOptionValues options;  // the --backend-option values, checked
  // Every declared option with its chosen or default value (recorded in
  // checkpoints and reports).
  BackendOptionValues options_in_effect() const;
  std::unique_ptr<Context> context;  // the first device's
  std::vector<std::unique_ptr<Context>> more_contexts;  // further devices of --devices
  DeviceInfo device;

  // Every device's context, the first one first.
  std::vector<Context*> contexts() const;
};

// Discovery and selection of the backend the options name, --device and
// --threads checked: run before any work, so a bad choice costs nothing. Prints
// only discovery warnings.
BackendSession select_backend_session(const po::variables_map& vm);

// Creates the selected backend's context and logs what runs where.
void start_backend_session(BackendSession& session, const po::variables_map& vm, std::ostream& log);

// Both at once.
BackendSession open_backend_session(const po::variables_map& vm, std::ostream& log);

// A command's end, for its stage table's "release memory" row: the devices'
// contexts (the further ones first), the registry, then the backends'
// libraries, so that their teardown is timed in that row (the CUDA driver's
// primary context still ends with the process, docs/PERF.md). None of its
// members is usable after it; whatever was made on its contexts must be
// gone already.
void end_backend_session(BackendSession& session);

// Adds "backend options" (every declared option with its value in effect) to
// the report's settings; nothing for a backend without options.
void add_backend_options_setting(const BackendSession& session, ReportData& report);

}  // namespace cae::cli
