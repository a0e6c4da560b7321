// `cae bench`: per-op milliseconds at the model's shapes, one training epoch,
// feature extraction, achieved TFLOP/s and peak device memory.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "backend_session.hpp"
#include "bench/model_benchmark.hpp"
#include "commands.hpp"
#include "io/atomic_file.hpp"
#include "option_checks.hpp"

namespace cae::cli {
namespace {

void print_table(const bench::BenchResult& r, const bench::BenchSettings& s) {
  std::printf("\n%-20s %-15s %-34s %10s %9s\n", "op", "layer", "shape", "ms", "TFLOP/s");
  double total_ms = 0;
  for (const auto& op : r.ops) {
    total_ms += op.ms;
    if (op.gflop > 0) {
      std::printf("%-20s %-15s %-34s %10.3f %9.2f\n", op.op.c_str(), op.layer.c_str(), op.shape.c_str(),
                  op.ms, op.gflop / op.ms);
    } else {
      std::printf("%-20s %-15s %-34s %10.3f %9s\n", op.op.c_str(), op.layer.c_str(), op.shape.c_str(),
                  op.ms, "-");
    }
  }
  std::printf("%-71s %10.3f\n", "sum of ops (one training step)", total_ms);
  std::printf("\nepoch (%lld images, batch %d): %.3f s, %.0f images/s, %.2f TFLOP/s achieved\n",
              static_cast<long long>(s.images), s.batch, r.epoch_seconds, r.images_per_second,
              r.epoch_tflops);
  if (s.extract_images > 0) {
    std::printf("feature extraction (%lld images, batch %d): %.3f s\n",
                static_cast<long long>(s.extract_images), s.extract_batch, r.extract_seconds);
  }
  if (r.peak_device_bytes) {
    std::printf("peak device memory: %.1f MiB\n", double(r.peak_device_bytes) / (1024.0 * 1024.0));
  }
}

nlohmann::json to_json(const bench::BenchResult& r, const bench::BenchSettings& s,
                       const BackendSession& session) {
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& op : r.ops) {
    ops.push_back({{"op", op.op}, {"layer", op.layer}, {"shape", op.shape}, {"ms", op.ms},
                   {"tflops", op.gflop > 0 ? op.gflop / op.ms : 0.0}});
  }
  return {{"backend", session.backend->name},
          {"device", session.device.name},
          {"precision", precision_name(session.device.precision)},
          {"batch", s.batch},
          {"images", s.images},
          {"ops", ops},
          {"epoch_seconds", r.epoch_seconds},
          {"images_per_second", r.images_per_second},
          {"epoch_tflops", r.epoch_tflops},
          {"extract_images", s.extract_images},
          {"extract_seconds", r.extract_seconds},
          {"peak_device_bytes", r.peak_device_bytes}};
}

int run_bench(const po::variables_map& vm) {
  bench::BenchSettings s;
  s.batch = option_in_range(vm, "batch", 1, 65536);
  s.images = option_in_range<int64_t>(vm, "images", 1, 100000000);
  s.extract_images = option_in_range<int64_t>(vm, "extract-images", 0, 100000000);
  s.policy.repeats = option_in_range(vm, "repeats", 1, 100000);
  if (vm.count("json")) prepare_output_file(vm["json"].as<std::string>());
  BackendSession session = open_backend_session(vm, std::cout);
  bench::BenchResult r = bench::run_model_benchmark(*session.context, s, std::cout);
  print_table(r, s);
  if (vm.count("json")) {
    write_file_atomically(vm["json"].as<std::string>(), to_json(r, s, session).dump(2) + "\n");
  }
  return 0;
}

}  // namespace

Command bench_command() {
  return {"bench", "cae bench [--backend B] [--batch 64] [--images 50000] [--json FILE]",
          "Time every op at the model's shapes, one training epoch and feature extraction",
          [](po::options_description& options, po::positional_options_description&) {
            add_backend_options(options);
            options.add_options()
                ("batch", po::value<int>()->default_value(64)->value_name("N"), "training batch size")
                ("images", po::value<int64_t>()->default_value(50000)->value_name("N"), "images in the timed epoch")
                ("extract-images", po::value<int64_t>()->default_value(60000)->value_name("N"), "images encoded in the extraction timing (0 = skip)")
                ("repeats", po::value<int>()->default_value(20)->value_name("R"), "timed runs per op (median)")
                ("json", po::value<std::string>()->value_name("FILE"), "also write the results as JSON");
          },
          run_bench};
}

}  // namespace cae::cli
