#include "bench/backend_comparison.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace cae::bench {
namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

double tflops(const OpTiming& op) { return op.gflop > 0 && op.ms > 0 ? op.gflop / op.ms : 0.0; }
double gbps(const OpTiming& op) {
  return op.gbytes > 0 && op.ms > 0 ? op.gbytes / op.ms * 1e3 : 0.0;
}

std::string line(const std::string& a, const std::string& b, const std::string& c,
                 const std::string& d, const std::string& e, const std::string& f) {
  char text[256];
  std::snprintf(text, sizeof text, "  %-12s %-24s %12s %10s %9s %9s\n", a.c_str(), b.c_str(),
                c.c_str(), d.c_str(), e.c_str(), f.c_str());
  return text;
}

}  // namespace

std::size_t choose_reference(const std::vector<BackendBench>& backends, const std::string& name) {
  for (std::size_t i = 0; i < backends.size(); ++i) {
    if (name.empty() ? backends[i].ran : lower(backends[i].name) == lower(name)) {
      if (!backends[i].ran) {
        throw std::invalid_argument("reference backend " + backends[i].name +
                                    " did not run: " + backends[i].skip_reason);
      }
      return i;
    }
  }
  if (name.empty()) throw std::invalid_argument("no backend could run");
  throw std::invalid_argument("reference backend " + name + " is not among those benchmarked");
}

std::string speedup_text(double reference_ms, double ms) {
  if (!(reference_ms > 0) || !(ms > 0)) return "-";
  double x = reference_ms / ms;
  return format(x >= 100 ? "%.0fx" : x >= 10 ? "%.1fx" : "%.2fx", x);
}

std::string format_comparison(const BenchComparison& cmp) {
  const auto& backends = cmp.backends;
  const BackendBench& ref = backends[cmp.reference];
  std::string out;
  for (const BackendBench& b : backends) {
    if (!b.ran) out += "skipped " + b.name + ": " + b.skip_reason + "\n";
  }
  out += "\nper op at batch " + std::to_string(cmp.settings.batch) + ", speed-up over " + ref.name +
         "; TFLOP/s for convolutions, GB/s = bytes the op must move / time\n";
  out += line("op / layer", "backend", "ms", "speed-up", "TFLOP/s", "GB/s");
  for (std::size_t i = 0; i < ref.result.ops.size(); ++i) {
    const OpTiming& ref_op = ref.result.ops[i];
    out += ref_op.op + "  " + ref_op.layer + "  " + ref_op.shape + "\n";
    for (const BackendBench& b : backends) {
      if (!b.ran || i >= b.result.ops.size()) continue;
      const OpTiming& op = b.result.ops[i];
      out += line("", b.name + " (" + b.precision + ")", format("%.3f", op.ms),
                  speedup_text(ref_op.ms, op.ms), op.gflop > 0 ? format("%.2f", tflops(op)) : "-",
                  format("%.1f", gbps(op)));
    }
  }
  out += "\none epoch (" + std::to_string(cmp.settings.images) + " images, batch " +
         std::to_string(cmp.settings.batch) + "; host batches in " +
         (cmp.settings.host_memory == HostMemory::kPageable
              ? "pageable memory"
              : "page-locked memory where the backend offers it") +
         ")\n";
  char text[256];
  std::snprintf(text, sizeof text, "  %-24s %10s %10s %12s %9s %12s %10s\n", "backend", "epoch s",
                "speed-up", "images/s", "TFLOP/s", "extract s", "peak MiB");
  out += text;
  for (const BackendBench& b : backends) {
    if (!b.ran) continue;
    const BenchResult& r = b.result;
    std::string extract = cmp.settings.extract_images > 0 ? format("%.3f", r.extract_seconds) : "-";
    std::string peak =
        r.peak_device_bytes ? format("%.1f", double(r.peak_device_bytes) / 1048576.0) : "-";
    std::snprintf(text, sizeof text, "  %-24s %10.3f %10s %12.0f %9.2f %12s %10s\n",
                  (b.name + " (" + b.precision + ")").c_str(), r.epoch_seconds,
                  speedup_text(ref.result.epoch_seconds, r.epoch_seconds).c_str(),
                  r.images_per_second, r.epoch_tflops, extract.c_str(), peak.c_str());
    out += text;
  }
  return out;
}

std::string comparison_json(const BenchComparison& cmp) {
  using nlohmann::json;
  const BackendBench& ref = cmp.backends[cmp.reference];
  json backends = json::array();
  for (const BackendBench& b : cmp.backends) {
    json entry = {{"backend", b.name}, {"ran", b.ran}};
    if (!b.ran) {
      entry["skipped"] = b.skip_reason;
      backends.push_back(entry);
      continue;
    }
    json ops = json::array();
    for (std::size_t i = 0; i < b.result.ops.size(); ++i) {
      const OpTiming& op = b.result.ops[i];
      double ref_ms = i < ref.result.ops.size() ? ref.result.ops[i].ms : 0.0;
      ops.push_back({{"op", op.op},
                     {"layer", op.layer},
                     {"shape", op.shape},
                     {"ms", op.ms},
                     {"speedup", ref_ms > 0 && op.ms > 0 ? ref_ms / op.ms : 0.0},
                     {"tflops", tflops(op)},
                     {"gbps", gbps(op)}});
    }
    const BenchResult& r = b.result;
    entry.update(
        {{"device", b.device},
         {"precision", b.precision},
         {"ops", ops},
         {"epoch_seconds", r.epoch_seconds},
         {"epoch_speedup", r.epoch_seconds > 0 ? ref.result.epoch_seconds / r.epoch_seconds : 0.0},
         {"images_per_second", r.images_per_second},
         {"epoch_tflops", r.epoch_tflops},
         {"extract_seconds", r.extract_seconds},
         {"host_memory", r.pinned_transfers ? "pinned" : "pageable"},
         {"extract_streams", r.extract_streams},
         {"peak_device_bytes", r.peak_device_bytes}});
    backends.push_back(entry);
  }
  json doc = {{"format", "cae-bench-comparison"},
              {"version", 1},
              {"reference", ref.name},
              {"batch", cmp.settings.batch},
              {"images", cmp.settings.images},
              {"extract_images", cmp.settings.extract_images},
              {"repeats", cmp.settings.policy.repeats},
              {"backends", backends}};
  return doc.dump(2) + "\n";
}

}  // namespace cae::bench
