#include "model_benchmark.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <ostream>
#include <random>

#include "nn/autoencoder.hpp"
#include "nn/features.hpp"
#include "nn/optimizer.hpp"
#include "plugin/extraction_streams.hpp"

namespace cae::bench {
namespace {

std::string dims_text(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

// Random data (never zeros: they can run faster than real data).
Tensor random_tensor(Context& context, const std::vector<int64_t>& dims, std::mt19937& rng,
                     float low = -1.0f, float high = 1.0f) {
  Tensor t = context.alloc(dims);
  std::uniform_real_distribution<float> u(low, high);
  std::vector<float> host(size_t(t.count()));
  for (auto& v : host) v = u(rng);
  t.upload(host);
  return t;
}

// Gigabytes of float32 tensors holding `floats` values.
double gbytes_of(double floats) { return floats * 4.0 / 1e9; }

double count_of(const std::vector<int64_t>& dims) {
  double n = 1;
  for (int64_t d : dims) n *= double(d);
  return n;
}

void time_layer_ops(Context& context, const BenchSettings& s, std::mt19937& rng,
                    std::vector<OpTiming>& out) {
  const int64_t B = s.batch;
  const auto& layers = s.network.layers();
  for (size_t i = 0; i < layers.size(); ++i) {
    const auto& L = layers[i];
    std::vector<int64_t> in_dims{B, L.in_channels, L.size, L.size};
    std::vector<int64_t> out_dims{B, L.out_channels, L.size, L.size};
    Tensor x = random_tensor(context, in_dims, rng);
    Tensor w = random_tensor(context, L.weight_shape(), rng, -0.1f, 0.1f);
    Tensor b = random_tensor(context, {L.out_channels}, rng);
    Tensor y = context.alloc(out_dims);
    Tensor dy = random_tensor(context, out_dims, rng);
    Tensor dx = context.alloc(in_dims);
    Tensor dw = context.alloc(w.dims());
    Tensor db = context.alloc(b.dims());
    const double fwd_gflop = 2.0 * double(L.weight_count()) * L.size * L.size * double(B) / 1e9;
    const std::string io = dims_text(in_dims) + "->" + dims_text(out_dims);
    const double in_n = count_of(in_dims), out_n = count_of(out_dims);
    const double w_n = double(L.parameter_count());
    out.push_back({"conv2d_forward", L.name, io,
                   median_ms(
                       context, [&] { context.conv2d_forward(x, w, b, y, L.relu); }, s.policy),
                   fwd_gflop, gbytes_of(in_n + w_n + out_n)});
    Tensor* dx_or_null = i == 0 ? nullptr : &dx;  // the model never needs the input's gradient
    out.push_back(
        {"conv2d_backward", L.name, io,
         median_ms(
             context, [&] { context.conv2d_backward(x, w, dy, dx_or_null, dw, db); }, s.policy),
         fwd_gflop * (i == 0 ? 1.0 : 2.0),
         gbytes_of(in_n + w_n + out_n + w_n + (i == 0 ? 0.0 : in_n))});
    if (L.relu) {
      Tensor d_activation = context.alloc(out_dims);
      out.push_back({"relu_backward", L.name, dims_text(out_dims),
                     median_ms(
                         context, [&] { context.relu_backward(y, dy, d_activation); }, s.policy),
                     0, gbytes_of(3 * out_n)});
    }
    if (L.after == nn::After::MaxPool) {
      std::vector<int64_t> small{B, L.out_channels, L.size / 2, L.size / 2};
      Tensor p = context.alloc(small);
      Tensor dp = random_tensor(context, small, rng);
      Tensor dyy = context.alloc(out_dims);
      out.push_back({"maxpool2x2_forward", L.name, dims_text(out_dims),
                     median_ms(
                         context, [&] { context.maxpool2x2_forward(y, p); }, s.policy),
                     0, gbytes_of(out_n * 1.25)});
      out.push_back({"maxpool2x2_backward", L.name, dims_text(out_dims),
                     median_ms(
                         context, [&] { context.maxpool2x2_backward(y, dp, dyy); }, s.policy),
                     0, gbytes_of(out_n * 2.25)});
    } else if (L.after == nn::After::Upsample) {
      std::vector<int64_t> big{B, L.out_channels, L.size * 2, L.size * 2};
      Tensor u = context.alloc(big);
      Tensor du = random_tensor(context, big, rng);
      Tensor dyy = context.alloc(out_dims);
      out.push_back({"upsample2x_forward", L.name, dims_text(out_dims),
                     median_ms(
                         context, [&] { context.upsample2x_forward(y, u); }, s.policy),
                     0, gbytes_of(out_n * 5)});
      out.push_back({"upsample2x_backward", L.name, dims_text(big),
                     median_ms(
                         context, [&] { context.upsample2x_backward(du, dyy); }, s.policy),
                     0, gbytes_of(out_n * 5)});
    } else {
      Tensor target = random_tensor(context, out_dims, rng, 0.0f, 1.0f);
      Tensor loss = context.alloc({1});
      Tensor grad = context.alloc(out_dims);
      out.push_back({"mse_loss", L.name, dims_text(out_dims),
                     median_ms(
                         context, [&] { context.mse_loss(y, target, loss, &grad); }, s.policy),
                     0, gbytes_of(3 * out_n)});
    }
  }
}

void time_optimizer(Context& context, const BenchSettings& s, std::vector<OpTiming>& out) {
  nn::Parameters params = nn::Parameters::he_normal(s.network, s.seed);
  nn::Autoencoder model(context, params);
  nn::Optimizer adam(context, model.parameters(), model.parameter_names(), {});
  out.push_back({"adam_step", "all " + std::to_string(params.tensors.size()) + " tensors",
                 std::to_string(s.network.parameter_count()) + " parameters",
                 median_ms(
                     context, [&] { adam.step(model.parameters(), model.gradients()); }, s.policy),
                 // Reads parameters, gradients and both moments; writes parameters and moments.
                 0, gbytes_of(7.0 * double(s.network.parameter_count()))});
}

// The random batches copied into host memory of the kind the settings ask for.
std::vector<HostBuffer> host_batches(Context& context, const BenchSettings& s, int batch,
                                     std::mt19937& rng) {
  std::vector<HostBuffer> out;
  for (const auto& values : random_batches(batch, s.network.image_floats(), rng)) {
    out.emplace_back(context, values.size(), s.host_memory);
    std::copy(values.begin(), values.end(), out.back().data());
  }
  return out;
}

// Batches of random pixels, rotated so caches do not flatter the timing.

double time_epoch(Context& context, const BenchSettings& s, std::mt19937& rng, std::ostream& log) {
  nn::Autoencoder model(context, nn::Parameters::he_normal(s.network, s.seed));
  nn::Optimizer adam(context, model.parameters(), model.parameter_names(), {});
  auto batches = host_batches(context, s, s.batch, rng);
  Tensor full = context.alloc(s.network.image_dims(s.batch));
  Tensor loss = context.alloc({1});
  auto step = [&](Tensor& input, const HostBuffer& host, size_t n) {
    input.upload(host.data(), n * size_t(s.network.image_floats()));
    model.forward_backward(input, loss);
    adam.step(model.parameters(), model.gradients());
  };
  for (int i = 0; i < 3; ++i)
    step(full, batches[size_t(i) % batches.size()], size_t(s.batch));  // warm-up
  context.synchronize();
  log << "timing one epoch of " << s.images << " images at batch " << s.batch << " ...\n"
      << std::flush;
  auto start = std::chrono::steady_clock::now();
  int64_t done = 0;
  size_t k = 0;
  Tensor tail;
  while (done < s.images) {
    int64_t n = std::min<int64_t>(s.batch, s.images - done);
    Tensor* input = &full;
    if (n != s.batch) {
      tail = context.alloc(s.network.image_dims(n));
      input = &tail;
    }
    step(*input, batches[k++ % batches.size()], size_t(n));
    done += n;
  }
  context.synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

constexpr int kExtractionPasses = 3;

// `count` images of random pixels, shaped for the network (labels unused).
ImageSet random_images(const nn::Network& network, size_t count, std::mt19937& rng) {
  ImageSet images;
  images.channels = network.image_channels();
  images.side = network.image_side();
  images.pixels.resize(count * images.image_bytes());
  images.labels.assign(count, 0);
  // Four pixels per 32-bit draw: one draw per pixel made a 60,000-image set
  // cost 184 M draws, per backend benched.
  for (size_t i = 0; i < images.pixels.size(); i += 4) {
    const uint32_t word = uint32_t(rng());
    for (size_t b = 0; b < 4 && i + b < images.pixels.size(); ++b) {
      images.pixels[i + b] = uint8_t(word >> (8 * b));
    }
  }
  return images;
}

// Extraction as `cae extract` runs it (nn::encode_in_parallel, the seed's
// latent recipe): `streams` contexts on the device (the given one and
// streams - 1 more), each on its own thread with a contiguous range of rows,
// so that one context's copies overlap another's compute. Timed from the
// images in host memory to every feature row written; the contexts and models
// are made before the clock starts.
double time_extraction(Context& context, const BenchSettings& s, int streams, std::mt19937& rng) {
  const ExtractionContexts extraction({&context}, streams);
  const std::vector<Context*>& contexts = extraction.all();
  const nn::ModelCopies copies(contexts, nn::Parameters::he_normal(s.network, s.seed));
  const nn::FeatureRecipe& recipe = nn::feature_recipes().front();  // "latent"
  const ImageSet images = random_images(s.network, size_t(s.extract_images), rng);
  // Written once before timing, as `cae extract`'s result is (zero-filled).
  std::vector<float> features(images.size() * size_t(recipe.dim(s.network)));
  auto encode = [&](const ImageSet& set) {
    nn::encode_in_parallel(contexts, copies.models(), recipe, set, {0, set.size()}, s.extract_batch,
                           s.host_memory, features.data(), [](size_t, size_t) {});
  };
  // Warm-up: one batch per context.
  encode(random_images(s.network, std::min(images.size(), contexts.size() * size_t(s.extract_batch)), rng));
  for (Context* c : contexts) c->synchronize();
  // The median of three passes: one pass is short (0.1 s on an H200), and
  // two threads sharing a GPU vary more than one.
  std::vector<double> seconds;
  for (int pass = 0; pass < kExtractionPasses; ++pass) {
    auto start = std::chrono::steady_clock::now();
    encode(images);
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

}  // namespace

std::vector<std::vector<float>> random_batches(int batch, int64_t image_floats, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<std::vector<float>> batches(4, std::vector<float>(size_t(batch) * size_t(image_floats)));
  for (auto& b : batches) {
    for (auto& v : b) v = u(rng);
  }
  return batches;
}

BenchResult run_model_benchmark(Context& context, const BenchSettings& s, std::ostream& log) {
  BenchResult r;
  r.pinned_transfers = s.host_memory == HostMemory::kPinnedWhenOffered && context.has_host_memory();
  std::mt19937 rng(uint32_t(s.seed));
  log << "timing each op at the model's shapes (median of " << s.policy.repeats << " after "
      << s.policy.warmup << " warm-up runs, "
      << (context.has_timer() ? "device timer" : "wall clock") << ") ...\n"
      << std::flush;
  time_layer_ops(context, s, rng, r.ops);
  time_optimizer(context, s, r.ops);
  r.epoch_seconds = time_epoch(context, s, rng, log);
  r.images_per_second = double(s.images) / r.epoch_seconds;
  r.epoch_tflops = 3.0 * s.network.forward_flops_per_image() * double(s.images) / r.epoch_seconds / 1e12;
  if (s.extract_images > 0) {
    log << "timing feature extraction of " << s.extract_images << " images ...\n" << std::flush;
    r.extract_streams = extraction_streams(context, s.extract_streams);
    r.extract_seconds = time_extraction(context, s, r.extract_streams, rng);
  }
  if (context.has_memory_stats()) {
    uint64_t in_use = 0;
    context.memory_stats(in_use, r.peak_device_bytes);
  }
  return r;
}

}  // namespace cae::bench
