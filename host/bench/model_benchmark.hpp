// `cae bench`'s measurements: every op of the model at its real shapes, one
// full training epoch, and encoder feature extraction.
#pragma once

#include <iosfwd>
#include <random>
#include <string>
#include <vector>

#include "bench/device_timer.hpp"
#include "nn/architecture.hpp"
#include "plugin/host_buffer.hpp"

namespace cae::bench {

struct OpTiming {
  std::string op;     // "conv2d_forward"
  std::string layer;  // "encoder.conv2"
  std::string shape;  // "[64,256,16,16]->[64,128,16,16]"
  double ms = 0;
  double gflop = 0;  // 0 for memory-bound ops
  // Bytes the op must read and write at least (inputs, outputs, weights,
  // gradients; float32), in 1e9 units: achieved GB/s = gbytes / ms * 1000.
  double gbytes = 0;
};

struct BenchSettings {
  int batch = 64;
  int64_t images = 50000;          // training images in the timed epoch
  int64_t extract_images = 60000;  // images encoded in the extraction timing (0 = skip)
  int extract_batch = 256;
  int extract_streams = 0;         // contexts on the device during extraction (0 = auto)
  TimingPolicy policy;
  uint64_t seed = 1;
  // The network timed, on random images of its shape (--model, --image-size).
  nn::Network network = nn::Network::seed();
  // Where the epoch's and the extraction's host batches live (--host-memory).
  HostMemory host_memory = HostMemory::kPinnedWhenOffered;
};

struct BenchResult {
  std::vector<OpTiming> ops;
  double epoch_seconds = 0;
  double images_per_second = 0;
  double epoch_tflops = 0;  // achieved, counting 3x forward FLOPs per image
  double extract_seconds = 0;     // median of three passes
  int extract_streams = 1;         // contexts the extraction ran on
  bool pinned_transfers = false;   // the host batches were the backend's page-locked memory
  uint64_t peak_device_bytes = 0;  // 0 when the backend has no memory_stats
};

// Four distinct batches of `batch` random images of `image_floats` values
// (uniform in [0, 1), never zeros: they can run faster than real data),
// reused round-robin by the timings.
std::vector<std::vector<float>> random_batches(int batch, int64_t image_floats, std::mt19937& rng);

BenchResult run_model_benchmark(Context& context, const BenchSettings& settings, std::ostream& log);

}  // namespace cae::bench
