#include "bench/data_parallel_benchmark.hpp"

#include <algorithm>
#include <chrono>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>

#include "nn/architecture.hpp"
#include "nn/model_replicas.hpp"
#include "nn/parameters.hpp"
#include "plugin/device_group.hpp"
#include "plugin/per_device.hpp"

namespace cae::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void synchronize_all(const std::vector<Context*>& contexts) {
  run_per_device(contexts.size(), [&](size_t d) { contexts[d]->synchronize(); });
}

// One epoch of `images` images through `contexts` at `batch` (global);
// returns seconds and counts steps, and of those the steps whose gradient
// exchange ran inside each device's step graph (ABI 1.6).
double time_epoch(const std::vector<Context*>& contexts, const BenchSettings& s, int batch,
                  int64_t* steps, int64_t* exchanged_in_graph) {
  nn::ModelReplicas replicas(contexts, nn::Parameters::he_normal(s.network, s.seed), {}, batch);
  std::mt19937 rng{static_cast<uint32_t>(s.seed)};
  const auto batches = random_batches(batch, s.network.image_floats(), rng);
  for (int i = 0; i < 3; ++i) replicas.train_step(batches[size_t(i)].data(), batch);  // warm-up
  synchronize_all(contexts);
  const auto start = Clock::now();
  int64_t done = 0;
  size_t k = 0;
  *steps = 0;
  while (done < s.images) {
    const int64_t n = std::min<int64_t>(batch, s.images - done);
    replicas.train_step(batches[k++ % batches.size()].data(), n);
    done += n;
    ++*steps;
    if (replicas.last_step_exchanged_in_graph()) ++*exchanged_in_graph;
  }
  synchronize_all(contexts);
  return seconds_since(start);
}

// The fused exchange of a training step alone: one gradient-shaped tensor per
// parameter on every device, summed across the group; median wall time.
double time_exchange(const std::vector<Context*>& contexts, const nn::Network& network,
                     const TimingPolicy& policy, bool* backend_collectives, uint64_t* payload) {
  const nn::Parameters shapes = nn::Parameters::he_normal(network, 1);
  std::vector<std::vector<Tensor>> owned(contexts.size());
  std::vector<std::vector<Tensor*>> lists(contexts.size());
  *payload = 0;
  for (size_t d = 0; d < contexts.size(); ++d) {
    for (const auto& p : shapes.tensors) {
      owned[d].push_back(contexts[d]->alloc(p.shape));
      owned[d].back().upload(p.data);
      if (d == 0) *payload += uint64_t(p.data.size()) * sizeof(float);
    }
    for (Tensor& t : owned[d]) lists[d].push_back(&t);
  }
  DeviceGroup group(contexts);
  *backend_collectives = group.backend_collectives();
  std::vector<double> ms;
  for (int i = 0; i < policy.warmup + policy.repeats; ++i) {
    synchronize_all(contexts);
    const auto start = Clock::now();
    // Scale 1/N keeps the values bounded over many repeats, as in training.
    group.all_reduce_sum(lists, 1.0f / float(contexts.size()));
    synchronize_all(contexts);
    if (i >= policy.warmup) ms.push_back(seconds_since(start) * 1e3);
  }
  std::nth_element(ms.begin(), ms.begin() + long(ms.size() / 2), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

DataParallelResult run_data_parallel_benchmark(const std::vector<Context*>& contexts,
                                               const BenchSettings& s, std::ostream& log) {
  const int n = int(contexts.size());
  if (n < 2) throw std::invalid_argument("the data-parallel benchmark needs at least two devices");
  if (s.batch % n != 0) {
    throw std::invalid_argument("--batch " + std::to_string(s.batch) + " is not a multiple of the " +
                                std::to_string(n) + " devices");
  }
  DataParallelResult r;
  r.devices = n;
  r.global_batch = s.batch;
  r.images = s.images;
  int64_t single_steps = 0, single_in_graph = 0;
  log << "timing one epoch of " << s.images << " images on device 0 alone at batch "
      << s.batch / n << " ...\n" << std::flush;
  r.single_seconds = time_epoch({contexts[0]}, s, s.batch / n, &single_steps, &single_in_graph);
  log << "timing the same epoch on " << n << " devices at global batch " << s.batch << " ...\n"
      << std::flush;
  r.parallel_seconds = time_epoch(contexts, s, s.batch, &r.steps, &r.steps_exchanged_in_graph);
  r.speedup = r.single_seconds / r.parallel_seconds;
  log << "timing the fused gradient exchange (median of " << s.policy.repeats << ") ...\n"
      << std::flush;
  r.exchange_ms = time_exchange(contexts, s.network, s.policy, &r.backend_collectives, &r.gradient_bytes);
  r.ring_bytes_per_device = 2.0 * double(n - 1) / double(n) * double(r.gradient_bytes);
  return r;
}

}  // namespace cae::bench
