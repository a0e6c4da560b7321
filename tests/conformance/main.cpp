// cae-conformance: certifies one backend against api/cae/backend.h.
// Loads the backend through the host's plugin layer, skips (exit 77) when its
// probe says, as the header asks, that it cannot run here (a probe that fails
// instead is a FAIL), then lets doctest run every check. --sweep hands the
// run to sweep.cpp, which runs this program once per seed; --jobs without
// it to shards.cpp, which runs one seed's test cases in several processes.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <sstream>

#include "certify.hpp"
#include "error_bounds.hpp"
#include "io/sha256.hpp"
#include "json_report.hpp"
#include "options.hpp"
#include "plugin/registry.hpp"
#include "random_data.hpp"
#include "report.hpp"
#include "shards.hpp"
#include "suite.hpp"
#include "sweep.hpp"
#include "watchdog.hpp"

namespace {

constexpr int kExitPassed = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitSkipped = 77;

// "*conv2d*" for --filter conv2d: a substring of the test case (op) name.
std::string doctest_filter(const std::string& filter) {
  std::stringstream parts(filter);
  std::string part, patterns;
  while (std::getline(parts, part, ',')) {
    if (part.empty()) continue;
    patterns += (patterns.empty() ? "*" : ",*") + part + "*";
  }
  return patterns;
}

void print_header(const conformance::Suite& s, const cae::BackendRecord& record) {
  const cae_backend_table& t = *s.table;
  std::cout
      << "cae-conformance: backend " << record.name << " " << (t.version ? t.version : "?") << " ("
      << record.plugin.path << ")\n"
      << "  device " << s.device_index << ": " << s.device.name << ", precision "
      << cae::precision_name(s.device.precision) << " -> matrix-product tolerance "
      << conformance::sci(conformance::product_tolerance(1))
      << " x sum|a||b| per element, element-wise "
      << conformance::sci(conformance::elementwise_tolerance()) << ", deterministic "
      << (s.device.deterministic ? "yes" : "no") << "\n"
      << (s.backend_options.empty() ? ""
                                    : "  options " + cae::options_text(s.backend_options) + "\n")
      << "  seed " << s.seed << " (repeat with --seed " << s.seed << ")"
      << (s.quick ? ", quick" : "") << "\n"
      << "  outputs are poisoned (NaN, +-1e30) before every call; host buffers have guard zones\n"
      << std::endl;
}

std::string elapsed_text() {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", conformance::elapsed_seconds());
  return text;
}

// `judged`: the checks ran to a verdict on the backend (not a signal, not a
// probe that failed before any check), which a full run records.
int summarise(const std::string& backend, int doctest_status, const conformance::Options& options,
              bool judged) {
  std::lock_guard<std::recursive_mutex> lock(conformance::report_mutex());
  const conformance::Tally& t = conformance::tally();
  // A run whose --filter matches nothing fails; one process's share of a
  // split run (--shard) may be empty, and the parent judges the whole run.
  const bool empty_share = conformance::suite().shards > 1 && conformance::cases_run() == 0;
  const bool passed = t.failed == 0 && doctest_status == 0 && (t.passed > 0 || empty_share);
  if (!conformance::suite().json_path.empty()) {
    conformance::write_run_json(conformance::suite().json_path, backend, conformance::suite().seed,
                                passed ? "passed" : "failed");
  }
  std::cout << "\ncae-conformance: " << backend << ": " << t.passed + t.failed << " checks, "
            << t.passed << " passed, " << t.failed << " failed, " << t.notes << " notes (seed "
            << conformance::suite().seed << ", " << elapsed_text() << "): " << (passed ? "PASSED" : "FAILED") << std::endl;
  if (t.passed + t.failed == 0 && !empty_share) {
    std::cout << "  no check ran (does --filter match an op?)\n";
  }
  if (t.failed == 0 && doctest_status != 0) {
    std::cout << "  doctest reported a failure outside the checks (see above)\n";
  }
  const conformance::Suite& s = conformance::suite();
  if (judged && s.table) {
    if (conformance::certifies(options)) {
      conformance::record_certification(s.library_path, s.library_sha256, backend,
                                        s.table->version ? s.table->version : "", {s.seed}, passed);
    } else {
      conformance::say_not_certified(options);
    }
  }
  return passed ? kExitPassed : kExitFailed;
}

}  // namespace

int main(int argc, char** argv) {
  conformance::elapsed_seconds();  // starts the clock of the run and its --time-limit
  conformance::Options options;
  try {
    options = conformance::parse_options(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "cae-conformance: " << e.what() << "\nTry 'cae-conformance --help'.\n";
    return kExitUsage;
  }
  if (options.help) {
    std::cout << conformance::usage_text();
    return kExitPassed;
  }
  if (options.sweep > 0) return conformance::run_sweep(options, argc, argv);
  if (options.jobs > 1) return conformance::run_shards(options, argc, argv);

  conformance::Suite& suite = conformance::suite();
  suite.seed = options.seed ? *options.seed : conformance::fresh_seed();
  suite.quick = options.quick;
  suite.shard = options.shard;
  suite.shards = options.shards;
  suite.models = {suite.seed, options.models, options.large_models, options.quick};
  suite.device_index = options.device;
  suite.json_path = options.json;
  // From here on a crash, in the backend's loading too, ends with a verdict.
  conformance::install_crash_report(options.backend, suite.seed, options.json);

  const cae::Registry registry = cae::Registry::discover(conformance::discovery_for(options));
  for (const std::string& warning : registry.warnings()) std::cerr << warning << "\n";
  const cae::BackendRecord* found = conformance::find_backend(registry, options.backend);
  if (found && found->probe_failed) {
    // Only a well-formed "unavailable" (probe returns OK, available = 0) is a
    // skip; a probe that fails breaks the header's contract.
    conformance::install_crash_report(found->name, suite.seed, options.json);
    conformance::record(false, "backend", "probe", "returned an error status");
    conformance::explain(found->unavailable_reason +
                         " (probe must return CAE_STATUS_OK and report a machine it cannot "
                         "use through available = 0 and a reason)");
    return summarise(found->name, 0, options, false);
  }
  if (found && !options.backend_options.empty()) {
    // Checked against the declarations even where the backend cannot run, so
    // a misspelt option fails everywhere instead of certifying the defaults.
    try {
      suite.backend_options = cae::check_backend_options(found->table(), options.backend_options);
    } catch (const std::invalid_argument& e) {
      std::cerr << "cae-conformance: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  if (found && !found->available) {
    std::cout << "SKIPPED: " << found->name << ": " << found->unavailable_reason << std::endl;
    if (!options.json.empty()) {
      conformance::write_run_json(options.json, found->name, suite.seed, "skipped",
                                  found->unavailable_reason);
    }
    return kExitSkipped;
  }

  std::string backend_name = options.backend;
  // From here on a backend that hangs (creating its context too), or a stop
  // signal, still ends with a verdict (watchdog.hpp).
  conformance::start_watchdog(options.check_timeout, options.time_limit, options.max_failures,
                              [&backend_name, &options](bool interrupted) {
                                return summarise(backend_name, 0, options, !interrupted);
                              });
  try {
    const cae::BackendRecord& record = registry.select(options.backend);
    backend_name = record.name;
    conformance::install_crash_report(backend_name, suite.seed, options.json);
    suite.table = &record.table();
    suite.library_path = record.plugin.path;
    suite.library_sha256 = cae::sha256_of_file(record.plugin.path);
    suite.context = std::make_unique<cae::Context>(record.table(), options.device, 0,
                                                   suite.backend_options);
    suite.device = suite.context->device_info();
    print_header(suite, record);
  } catch (const std::exception& e) {
    std::cout << "cae-conformance: " << e.what() << "\n";
    for (const cae::ConsideredFile& file : registry.considered()) {
      if (!file.accepted) std::cout << "  rejected " << file.path << ": " << file.rejection << "\n";
    }
    conformance::stop_watchdog();
    std::cout << "cae-conformance: " << backend_name << ": FAILED (could not load or create)"
              << std::endl;
    if (!options.json.empty()) {
      conformance::write_run_json(options.json, backend_name, suite.seed, "failed", e.what());
    }
    return kExitFailed;
  }

  doctest::Context runner;
  // Our lines are the report; the "cae" reporter (doctest_reporter.cpp) adds
  // only escaped exceptions. --reporters=console restores doctest's output.
  runner.setOption("reporters", "cae");
  runner.setOption("no-path-filenames", true);
  std::vector<const char*> doctest_argv;
  for (const std::string& arg : options.doctest_args) doctest_argv.push_back(arg.c_str());
  runner.applyCommandLine(static_cast<int>(doctest_argv.size()), doctest_argv.data());
  if (!options.filter.empty())
    runner.addFilter("test-case", doctest_filter(options.filter).c_str());
  const int doctest_status = runner.run();
  conformance::stop_watchdog();
  if (runner.shouldExit()) {
    suite.context.reset();
    return doctest_status;
  }
  const int status = summarise(backend_name, doctest_status, options, true);
  suite.context.reset();  // before the libraries' static state goes away
  return status;
}
