// `cae bench`: per-op milliseconds at the model's shapes, one training epoch,
// feature extraction, achieved TFLOP/s and peak device memory; with
// `--backend all` or a list (`v2,v3,cpu`) every backend at the same shapes,
// side by side, speed-ups over a reference backend.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "backend_session.hpp"
#include "bench/bench_page.hpp"
#include "bench/data_parallel_benchmark.hpp"
#include "bench/model_benchmark.hpp"
#include "commands.hpp"
#include "first_use_certification.hpp"
#include "io/atomic_file.hpp"
#include "model_options.hpp"
#include "option_checks.hpp"
#include "path_options.hpp"

namespace cae::cli {
namespace {

void print_table(const bench::BenchResult& r, const bench::BenchSettings& s) {
  std::printf("\n%-20s %-15s %-34s %10s %9s %9s\n", "op", "layer", "shape", "ms", "TFLOP/s", "GB/s");
  double total_ms = 0;
  for (const auto& op : r.ops) {
    total_ms += op.ms;
    char tflops[32] = "-";
    if (op.gflop > 0) std::snprintf(tflops, sizeof tflops, "%.2f", op.gflop / op.ms);
    std::printf("%-20s %-15s %-34s %10.3f %9s %9.1f\n", op.op.c_str(), op.layer.c_str(),
                op.shape.c_str(), op.ms, tflops, op.gbytes / op.ms * 1e3);
  }
  std::printf("%-71s %10.3f\n", "sum of ops (one training step)", total_ms);
  std::printf("\nepoch (%lld images, batch %d): %.3f s, %.0f images/s, %.2f TFLOP/s achieved\n",
              static_cast<long long>(s.images), s.batch, r.epoch_seconds, r.images_per_second,
              r.epoch_tflops);
  if (s.extract_images > 0) {
    std::printf("feature extraction (%lld images, batch %d, %d context%s): %.3f s\n",
                static_cast<long long>(s.extract_images), s.extract_batch, r.extract_streams,
                r.extract_streams == 1 ? "" : "s", r.extract_seconds);
    std::printf("host batches in %s memory%s\n", r.pinned_transfers ? "page-locked" : "pageable",
                r.pinned_transfers || s.host_memory == HostMemory::kPageable
                    ? ""
                    : " (the backend has no host_alloc)");
  }
  if (r.peak_device_bytes) {
    std::printf("peak device memory: %.1f MiB\n", double(r.peak_device_bytes) / (1024.0 * 1024.0));
  }
}

// The options in effect, as {"name": "value", ...}.
nlohmann::json options_object(const BackendSession& session) {
  const BackendOptionValues options = session.options_in_effect();
  return std::map<std::string, std::string>(options.begin(), options.end());
}

nlohmann::json to_json(const bench::BenchResult& r, const bench::BenchSettings& s,
                       const BackendSession& session) {
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& op : r.ops) {
    ops.push_back({{"op", op.op}, {"layer", op.layer}, {"shape", op.shape}, {"ms", op.ms},
                   {"tflops", op.gflop > 0 ? op.gflop / op.ms : 0.0},
                   {"gbps", op.gbytes / op.ms * 1e3}});
  }
  return {{"backend", session.backend->name},
          {"device", session.device.name},
          {"precision", precision_name(session.device.precision)},
          {"backend_options", options_object(session)},
          {"batch", s.batch},
          {"images", s.images},
          {"model", s.network.description().name},
          {"image_size", s.network.image_side()},
          {"ops", ops},
          {"epoch_seconds", r.epoch_seconds},
          {"images_per_second", r.images_per_second},
          {"epoch_tflops", r.epoch_tflops},
          {"extract_images", s.extract_images},
          {"extract_seconds", r.extract_seconds},
          {"host_memory", r.pinned_transfers ? "pinned" : "pageable"},
          {"extract_streams", r.extract_streams},
          {"peak_device_bytes", r.peak_device_bytes}};
}

void print_data_parallel(const bench::DataParallelResult& r, const std::string& backend) {
  const double single_rate = double(r.images) / r.single_seconds;
  const double parallel_rate = double(r.images) / r.parallel_seconds;
  std::printf("\ndata-parallel training, %s on %d devices (%s):\n", backend.c_str(), r.devices,
              r.backend_collectives ? "the backend's collectives" : "host exchange");
  std::printf("  1 device,  batch %5d: %.3f s per %lld-image epoch, %.0f images/s\n",
              r.global_batch / r.devices, r.single_seconds, static_cast<long long>(r.images),
              single_rate);
  std::printf("  %d devices, batch %5d: %.3f s, %.0f images/s, speed-up %.2fx\n", r.devices,
              r.global_batch, r.parallel_seconds, parallel_rate, r.speedup);
  if (r.steps_exchanged_in_graph > 0) {
    std::printf("  exchange inside each device's step graph (one per gradient, the backend free to "
                "overlap it with the backward pass) in %lld of %lld steps; the others: the fused "
                "exchange below\n",
                static_cast<long long>(r.steps_exchanged_in_graph), static_cast<long long>(r.steps));
  } else {
    std::printf("  exchange: the fused one below, after each step's backward pass\n");
  }
  const double exchange_total = r.exchange_ms * 1e-3 * double(r.steps);
  std::printf("  fused gradient exchange: %.2f MB per device, %.3f ms (median), ring traffic %.2f MB "
              "per device (%.1f GB/s); x %lld steps = %.3f s, %.1f%% of the epoch\n",
              double(r.gradient_bytes) / 1e6, r.exchange_ms, r.ring_bytes_per_device / 1e6,
              r.ring_bytes_per_device / (r.exchange_ms * 1e-3) / 1e9, static_cast<long long>(r.steps),
              exchange_total, 100.0 * exchange_total / r.parallel_seconds);
}

nlohmann::json to_json(const bench::DataParallelResult& r, const BackendSession& session) {
  return {{"backend", session.backend->name},
          {"device", session.device.name},
          {"backend_options", options_object(session)},
          {"devices", r.devices},
          {"global_batch", r.global_batch},
          {"images", r.images},
          {"single_device_seconds", r.single_seconds},
          {"parallel_seconds", r.parallel_seconds},
          {"speedup", r.speedup},
          {"exchange_ms", r.exchange_ms},
          {"steps", r.steps},
          {"steps_exchanged_in_graph", r.steps_exchanged_in_graph},
          {"gradient_bytes", r.gradient_bytes},
          {"ring_bytes_per_device", r.ring_bytes_per_device},
          {"backend_collectives", r.backend_collectives}};
}

int bench_data_parallel(const po::variables_map& vm, const bench::BenchSettings& s,
                        const BackendSession& session) {
  const std::vector<Context*> contexts = session.contexts();
  if (s.batch % int(contexts.size()) != 0) {
    throw UsageError("--batch " + std::to_string(s.batch) + " must be a multiple of the " +
                     std::to_string(contexts.size()) + " devices of --devices");
  }
  const bench::DataParallelResult r = bench::run_data_parallel_benchmark(contexts, s, std::cout);
  print_data_parallel(r, session.backend->name);
  if (vm.count("json")) {
    write_file_atomically(vm["json"].as<std::string>(), to_json(r, session).dump(2) + "\n");
  }
  return 0;
}

// --backend all, or a comma-separated list of names.
bool compares_backends(const po::variables_map& vm) {
  if (!vm.count("backend")) return false;
  const std::string& spec = vm["backend"].as<std::string>();
  return spec == "all" || spec.find(',') != std::string::npos;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::vector<std::string> listed_names(const std::string& spec) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = spec.find(',', start);
    std::string name = spec.substr(start, comma == std::string::npos ? comma : comma - start);
    if (name.empty()) throw UsageError("--backend list \"" + spec + "\" has an empty name");
    if (names_a_backend_file(name)) {
      throw UsageError("--backend lists take backend names, not files (\"" + name +
                       "\"): put the file's folder in --plugin-dir");
    }
    for (const std::string& seen : names) {
      if (lower(seen) == lower(name)) throw UsageError("--backend lists " + name + " twice");
    }
    names.push_back(name);
    if (comma == std::string::npos) return names;
    start = comma + 1;
  }
}

// The records to run, in order: the list's, or for "all" every backend found
// by ascending probe priority (cpu, naive, v1, winograd, v2, v3, v4: slowest to fastest).
std::vector<const BackendRecord*> chosen_backends(const Registry& registry, const std::string& spec) {
  std::vector<const BackendRecord*> chosen;
  if (spec == "all") {
    for (const BackendRecord& record : registry.backends()) chosen.push_back(&record);
    std::stable_sort(chosen.begin(), chosen.end(), [](const BackendRecord* a, const BackendRecord* b) {
      return a->priority < b->priority;
    });
    if (chosen.empty()) throw UsageError("--backend all: no backend was found");
    return chosen;
  }
  for (const std::string& name : listed_names(spec)) {
    const BackendRecord* record = registry.find(name);
    if (!record) {
      std::string known;
      for (const BackendRecord& r : registry.backends()) known += (known.empty() ? "" : ", ") + r.name;
      throw UsageError("unknown backend \"" + name + "\" (found: " + known + ")");
    }
    chosen.push_back(record);
  }
  return chosen;
}

bench::BackendBench bench_one(const BackendRecord& record, const BackendOptionValues& options,
                              const po::variables_map& vm, const bench::BenchSettings& s) {
  bench::BackendBench result;
  result.name = record.name;
  if (!record.available) {
    result.skip_reason = "unavailable: " + record.unavailable_reason;
    return result;
  }
  std::cout << "\n== " << record.name << " ==\n";
  try {
    Context context(record.table(), vm["device"].as<int>(), vm["threads"].as<int>(), options);
    DeviceInfo device = context.device_info();
    result.device = device.name;
    result.precision = precision_name(device.precision);
    std::cout << "backend " << record.name << " on " << device.name << " (" << result.precision
              << ")\n";
    result.result = bench::run_model_benchmark(context, s, std::cout);
    result.ran = true;
  } catch (const std::exception& e) {
    // One backend failing (out of memory, a driver error) must not lose the others' figures.
    result.skip_reason = std::string("failed: ") + e.what();
    std::cout << "skipped " << record.name << ": " << result.skip_reason << "\n";
  }
  return result;
}

void write_outputs(const po::variables_map& vm, const bench::BenchComparison& comparison) {
  if (vm.count("json")) {
    write_file_atomically(vm["json"].as<std::string>(), bench::comparison_json(comparison));
  }
  if (vm.count("html")) {
    bench::write_bench_page(vm["html"].as<std::string>(), comparison);
    std::cout << "page: " << vm["html"].as<std::string>() << "\n";
  }
}

std::string reference_option(const po::variables_map& vm) {
  return vm.count("reference") ? vm["reference"].as<std::string>() : "";
}

int compare_backends(const po::variables_map& vm, const bench::BenchSettings& s) {
  Registry registry = discover_backends(vm);
  print_discovery_warnings(registry);
  std::vector<const BackendRecord*> chosen =
      chosen_backends(registry, vm["backend"].as<std::string>());
  std::string reference = reference_option(vm);
  if (!reference.empty() &&
      std::none_of(chosen.begin(), chosen.end(),
                   [&](const BackendRecord* r) { return lower(r->name) == lower(reference); })) {
    throw UsageError("--reference " + reference + " is not among the backends benchmarked");
  }
  // --backend-option applies to every compared backend: each must declare it
  // (checked for all before any runs).
  std::vector<BackendOptionValues> options;
  for (const BackendRecord* record : chosen) options.push_back(chosen_backend_options(*record, vm));
  bench::BenchComparison comparison;
  comparison.settings = s;
  for (size_t i = 0; i < chosen.size(); ++i) {
    comparison.backends.push_back(bench_one(*chosen[i], options[i], vm, s));
  }
  try {
    comparison.reference = bench::choose_reference(comparison.backends, reference);
  } catch (const std::invalid_argument& e) {
    for (const auto& b : comparison.backends) std::cerr << "cae bench: " << b.name << ": " << b.skip_reason << "\n";
    throw std::runtime_error(e.what());
  }
  std::cout << "\n" << bench::format_comparison(comparison);
  write_outputs(vm, comparison);
  return 0;
}

int run_bench(const po::variables_map& vm) {
  bench::BenchSettings s;
  s.batch = option_in_range(vm, "batch", 1, 65536);
  s.images = option_in_range<int64_t>(vm, "images", 1, 100000000);
  s.extract_images = option_in_range<int64_t>(vm, "extract-images", 0, 100000000);
  s.policy.repeats = option_in_range(vm, "repeats", 1, 100000);
  s.extract_streams = option_in_range(vm, "extract-streams", 0, 16);
  s.network = bind_model(model_description_from(vm), 3, option_in_range(vm, "image-size", 1, 4096));
  const std::string memory = vm["host-memory"].as<std::string>();
  if (memory != "pinned" && memory != "pageable") {
    throw UsageError("--host-memory must be pinned or pageable, not \"" + memory + "\"");
  }
  s.host_memory = memory == "pinned" ? HostMemory::kPinnedWhenOffered : HostMemory::kPageable;
  std::vector<OutputLock> locks;  // one writer per output, for the whole run
  for (const char* output : {"json", "html"}) {
    if (vm.count(output)) {
      locks.push_back(claim_output_file(vm[output].as<std::string>(), std::string("--") + output));
    }
  }
  if (compares_backends(vm)) {
    if (vm.count("devices")) throw UsageError("--devices compares devices of ONE backend: name it");
    return compare_backends(vm, s);
  }
  if (vm.count("devices") && vm.count("html")) {
    throw UsageError("--html is not available with --devices (use --json)");
  }
  if (vm.count("reference")) throw UsageError("--reference needs --backend all or a list");
  BackendSession session = open_backend_session(vm, std::cout);
  if (session.contexts().size() > 1) return bench_data_parallel(vm, s, session);
  bench::BenchResult r = bench::run_model_benchmark(*session.context, s, std::cout);
  print_table(r, s);
  if (vm.count("json")) {
    write_file_atomically(vm["json"].as<std::string>(), to_json(r, s, session).dump(2) + "\n");
  }
  if (vm.count("html")) {  // the comparison page, of one backend
    bench::BenchComparison one{s, {{session.backend->name, session.device.name,
                                    precision_name(session.device.precision), true, "", r}}, 0};
    bench::write_bench_page(vm["html"].as<std::string>(), one);
    std::cout << "page: " << vm["html"].as<std::string>() << "\n";
  }
  return 0;
}

}  // namespace

Command bench_command() {
  return {"bench",
          "cae bench [--backend B|all|B1,B2,...] [--reference B] [--model NAME|FILE.json] "
          "[--image-size 32] [--batch 64] [--images 50000] [--extract-streams N] "
          "[--host-memory pinned|pageable] [--devices LIST] [--json FILE] [--html FILE]",
          "Time every op, a training epoch and feature extraction on one backend or several",
          [](po::options_description& options, po::positional_options_description&) {
            add_backend_options(options);
            add_first_use_certification_option(options);
            add_model_option(options);
            options.add_options()
                ("image-size", po::value<int>()->default_value(32)->value_name("N"),
                 "side of the random RGB images the model is timed on")
                ("batch", po::value<int>()->default_value(64)->value_name("N"), "training batch size")
                ("images", po::value<int64_t>()->default_value(50000)->value_name("N"), "images in the timed epoch")
                ("extract-images", po::value<int64_t>()->default_value(60000)->value_name("N"), "images encoded in the extraction timing (0 = skip)")
                ("repeats", po::value<int>()->default_value(20)->value_name("R"), "timed runs per op (median)")
                ("extract-streams", po::value<int>()->default_value(0)->value_name("N"),
                 "contexts on the device during the extraction timing, each on its own thread "
                 "(0 = auto: 4 for a backend with page-locked host memory, else 1)")
                ("host-memory", po::value<std::string>()->default_value("pinned")->value_name("KIND"),
                 "host batches of the epoch and the extraction in 'pinned' (page-locked, from a "
                 "backend with host_alloc; others use ordinary memory) or 'pageable' memory")
                ("json", output_file_value("--json")->value_name("FILE"), "also write the results as JSON")
                ("html", output_file_value("--html")->value_name("FILE"),
                 "also write a page with a bar chart per op and an epoch-time chart")
                ("reference", po::value<std::string>()->value_name("B"),
                 "with --backend all or a list: the backend speed-ups are measured against "
                 "(default: the first listed that runs; for all, cpu: the slowest first)");
          },
          run_bench,
          "Per op: milliseconds at the model's shapes, TFLOP/s, GB/s and peak memory; then one\n"
          "training epoch, and feature extraction: the median of three passes through the\n"
          "code `cae extract` runs, from 8-bit images in memory to every feature row written,\n"
          "on as many contexts as it uses. --host-memory pageable and --extract-streams 1\n"
          "measure what page-locked memory and overlapping contexts buy.\n"
          "--backend all (every backend found, by priority, slowest first: cpu, naive, v1,\n"
          "winograd, v2, v3, v4) or a list: every backend at the same shapes in one table,\n"
          "with speed-ups over the reference; a backend that cannot run says why.\n"
          "--devices 0,1: an epoch on the first device alone at the per-device batch\n"
          "(--batch / N), the same epoch over all devices at --batch (the global batch), the\n"
          "speed-up, and the gradient exchange alone (median ms, ring bytes per device, its\n"
          "share of the epoch).\n"};
}

}  // namespace cae::cli
