#include "options.hpp"

#include <cmath>
#include <stdexcept>

#include "watchdog.hpp"

namespace conformance {
namespace {

// "--name value" or "--name=value": returns true and sets `value` when argv[i]
// is option `name`, advancing i past a separate value.
bool take_value(const std::string& name, int argc, char** argv, int& i, std::string& value) {
  const std::string arg = argv[i];
  if (arg == name) {
    if (i + 1 >= argc) throw std::invalid_argument(name + " needs a value");
    value = argv[++i];
    return true;
  }
  if (arg.compare(0, name.size() + 1, name + "=") == 0) {
    value = arg.substr(name.size() + 1);
    return true;
  }
  return false;
}

uint64_t parse_unsigned(const std::string& option, const std::string& text) {
  size_t used = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || text[0] == '-') {
    throw std::invalid_argument(option + " expects a non-negative integer, got '" + text + "'");
  }
  return value;
}

// Seconds, a finite number from 0.001 to a day.
double parse_seconds(const std::string& option, const std::string& text) {
  size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !(value >= 0.001 && value <= 86400.0)) {
    throw std::invalid_argument(option + " expects seconds from 0.001 to 86400, got '" + text +
                                "'");
  }
  return value;
}

}  // namespace

Options parse_options(int argc, char** argv) {
  Options options;
  options.check_timeout = kDefaultCheckTimeout;
  options.time_limit = kDefaultTimeLimit;
  options.doctest_args.push_back(argc > 0 ? argv[0] : "cae-conformance");
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string value;
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (arg == "--no-record") {
      options.record = false;
    } else if (arg == "--quick") {
      options.quick = true;
    } else if (arg == "--large-models") {
      options.large_models = true;
    } else if (take_value("--models", argc, argv, i, value)) {
      const uint64_t models = parse_unsigned("--models", value);
      if (models > 1000) {
        throw std::invalid_argument("--models expects 0 to 1000, got '" + value + "'");
      }
      options.models = static_cast<int>(models);
    } else if (take_value("--backend", argc, argv, i, value)) {
      options.backend = value;
    } else if (take_value("--plugin-dir", argc, argv, i, value)) {
      options.plugin_dirs.push_back(value);
    } else if (take_value("--device", argc, argv, i, value)) {
      options.device = static_cast<int32_t>(parse_unsigned("--device", value));
    } else if (take_value("--seed", argc, argv, i, value)) {
      options.seed = parse_unsigned("--seed", value);
    } else if (take_value("--filter", argc, argv, i, value)) {
      options.filter = value;
    } else if (take_value("--sweep", argc, argv, i, value)) {
      options.sweep = parse_unsigned("--sweep", value);
      if (options.sweep == 0 || options.sweep > 100000) {
        throw std::invalid_argument("--sweep expects a number of seeds from 1 to 100000, got '" +
                                    value + "'");
      }
    } else if (take_value("--jobs", argc, argv, i, value)) {
      const uint64_t jobs = parse_unsigned("--jobs", value);
      if (jobs == 0 || jobs > 256) {
        throw std::invalid_argument("--jobs expects 1 to 256, got '" + value + "'");
      }
      options.jobs = static_cast<uint32_t>(jobs);
    } else if (take_value("--shard", argc, argv, i, value)) {
      const size_t slash = value.find('/');
      if (slash == std::string::npos) {
        throw std::invalid_argument("--shard expects K/J (e.g. 0/4), got '" + value + "'");
      }
      const uint64_t shard = parse_unsigned("--shard", value.substr(0, slash));
      const uint64_t shards = parse_unsigned("--shard", value.substr(slash + 1));
      if (shards == 0 || shards > 256 || shard >= shards) {
        throw std::invalid_argument(
            "--shard expects K/J with J from 1 to 256 and K below J, got '" + value + "'");
      }
      options.shard = static_cast<uint32_t>(shard);
      options.shards = static_cast<uint32_t>(shards);
    } else if (take_value("--backend-option", argc, argv, i, value)) {
      options.backend_options.push_back(value);
    } else if (take_value("--check-timeout", argc, argv, i, value)) {
      options.check_timeout = parse_seconds("--check-timeout", value);
    } else if (take_value("--time-limit", argc, argv, i, value)) {
      options.time_limit = parse_seconds("--time-limit", value);
    } else if (take_value("--max-failures", argc, argv, i, value)) {
      options.max_failures = parse_unsigned("--max-failures", value);
      if (options.max_failures == 0 || options.max_failures > 1000000) {
        throw std::invalid_argument("--max-failures expects 1 to 1000000, got '" + value + "'");
      }
    } else if (take_value("--json", argc, argv, i, value)) {
      if (value.empty()) throw std::invalid_argument("--json needs a file name");
      options.json = value;
    } else {
      options.doctest_args.push_back(arg);
    }
  }
  if (!options.help && options.backend.empty()) {
    throw std::invalid_argument("--backend is required");
  }
  return options;
}

std::string usage_text() {
  return R"(Usage: cae-conformance --backend NAME|PATH.so [options] [doctest options]

Certifies a cae compute backend: checks that it implements the backend ABI
(<cae/backend.h>) correctly. Every op against a float64 reference (fresh
random inputs; small odd shapes, the autoencoder's real layers, batches of 65
and 257 images; outputs poisoned before each call; guard zones around every
host buffer), the graphs (when provided) at every batch the host runs,
rerun with new contents in the same tensors, the max-pool tie rule,
in-place use, backward ops against the reference's analytic gradients,
Adam where its variants differ, bit-for-bit determinism (when the backend
declares it), short out-structs, error
reporting, and memory release (destroy, and alloc/free in one context).

Options:
  --backend NAME|PATH.so  the backend to check: a name found by discovery
                          (e.g. cpu, v2) or the path of a plugin library
  --plugin-dir DIR        also search DIR for plugins (repeatable; searched
                          before CAE_PLUGIN_PATH and the default folders)
  --device I              device index passed to create (default 0)
  --backend-option NAME=VALUE
                          one of the options the backend declares (ABI 1.4;
                          `cae info --backend B` lists them), repeatable:
                          every context of the run is created with them, so
                          a setting other than the defaults is certified
  --seed S                seed of the random inputs (default: a fresh one,
                          printed at the start; pass it to repeat a run)
  --filter OP             only the checks whose name contains OP, e.g.
                          conv2d, maxpool2x2_backward, errors, memory;
                          several: --filter conv2d,mse
  --quick                 fewer and smaller shapes
  --models N              random models whose every layer shape is checked
                          (default 2; drawn from the seed, so a sweep sees
                          new ones per seed; a GPU certification: 20 or more)
  --large-models          also every layer of the model presets on 96x96
                          images (STL-10's size; the float64 reference
                          takes minutes)
  --sweep N               run N seeds (--seed S, S+1, ...; default from 1),
                          each in its own process, and print the worst error
                          per op with the seed that gave it
  --jobs J                processes at once (default 1): a sweep's seeds,
                          or, without --sweep, one seed's test cases dealt
                          round-robin to J processes (on a GPU most of a
                          run is the host's float64 references and data,
                          which J processes share out); one summary line
                          and one record for the whole run either way
  --shard K/J             only the test cases K, K + J, K + 2J, ... (from
                          0, in the suite's order): one process's share of
                          --jobs J; never a certification by itself
  --json FILE             also write the verdict (per seed for a sweep) as JSON
  --no-record             do not record the verdict as a certification
  --check-timeout S       time limit of a check, in seconds per started
                          billion floating-point operations it asks of the
                          backend (default 60; a check that declares no work
                          gets S). A check past its limit FAILS naming the op
                          and the time, and the suite ends with its summary
  --max-failures N        end the run (one seed) after N failed checks, with
                          its summary and --json as after a time limit: the
                          verdict on a backend known to be wrong (a sweep
                          over mutants) without running every check
  --time-limit S          time limit of the whole run (one seed), in seconds
                          (default 1800): past it the running check FAILS
                          and the suite ends the same way, so a backend slow
                          in every call cannot keep it going for hours
  -h, --help              this text

Bounds: every output element must satisfy |out - ref| <= tol * scale, where
ref is the float64 reference on the same float32 inputs and scale the
magnitude of the terms the op combines into that element (sum |a||b| of a
dot product, |ref| of a selection). tol is 1e-5 for float32 arithmetic and,
for matrix products, follows the precision device_info declares: 1e-5 fp32,
2.5e-3 tf32 and fp16, 2e-2 bf16 (plus 8 u sqrt(terms) for long float32 sums).
Lines show the worst err/bound; <= 1 passes. NaN or Inf never passes. The
rules per op: docs/abi.md, "What cae-conformance requires".

Certification: a run of the full check set records its verdict for the
plugin file's SHA-256 beside the file (FILE.certified.json) or, when that
folder is not writable, in ~/.cache/cae/certified/ ($XDG_CACHE_HOME). cae
uses only a certified backend as its default (`cae backends` shows each
one's state); a sweep records all its seeds at the end. A run that checks
less or allows more (--filter, --quick, --shard, --models below 2, --max-failures,
--check-timeout above 60, --time-limit above 1800, doctest options) or another setting
(--backend-option) reports its verdict, says in one line that it is not a
certification, and records nothing; so does a run whose plugin file
changed while it ran.

A crash is a verdict: the check that was running is named, then FAILED.
So is a hang (see --check-timeout and --time-limit) and SIGTERM, SIGINT or SIGHUP: the
running check FAILS as interrupted, the summary line and --json follow, and
the exit status is 128 + the signal.

Output: one line per check ("op  shapes  measurement  ok|FAIL", with the
reason under a failure) and a summary. Other options go to doctest, e.g.
--list-test-cases, --reporters=console -s (doctest's own report, passing
checks included) or --reporters=junit --out=FILE (for CI).

Exit status: 0 every check passed, 1 a check failed (or the backend could not
be loaded or created, or crashed, or its probe returned an error), 2 bad
command line, 77 the backend is unavailable on this machine (its probe
returned OK with available = 0 and says why; printed as
"SKIPPED: <backend>: <reason>"). A sweep exits 0 only if every seed passed.

Examples:
  cae-conformance --backend ./build/libcae-backend-mine.so
  cae-conformance --backend ./build/libcae-backend-mine.so --filter conv2d --quick
  cae-conformance --backend cpu --seed 1234      (repeat a run's inputs)
  cae-conformance --backend v2 --sweep 200 --jobs 4 --json v2.json
  cae-conformance --backend v4 --jobs 4          (one seed, four processes)
  cae-conformance --backend v4 --backend-option bf16-terms=3 --backend-option fp32-conv=true

Writing a backend: docs/writing-a-backend.md (installed in share/doc/cae),
starting from the template in share/doc/cae/examples/backend-template.
)";
}

}  // namespace conformance
