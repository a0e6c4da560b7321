#include "model_shapes.hpp"

#include <cmath>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>

#include "nn/architecture.hpp"

namespace conformance {
namespace {

using cae::nn::After;
using cae::nn::ConvLayer;
using cae::nn::Network;

// Multiply-adds per image of one random layer at most: 512x512 channels at
// 4x4 fit, and so do 96x96 images with narrow layers.
constexpr double kMaxLayerMacs = 4e7;
constexpr int kMaxTries = 1000;

struct NamedNetwork {
  std::string label;  // "wide", "random model 2 of seed 17"
  Network network;
};

int log_uniform_channels(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> exponent(0.0, std::log2(512.0));
  return std::max(1, std::min(512, int(std::lround(std::exp2(exponent(rng))))));
}

int random_kernel(std::mt19937_64& rng) {
  const int kernels[] = {3, 3, 3, 3, 3, 3, 5, 5, 1, 7};
  return kernels[std::uniform_int_distribution<int>(0, 9)(rng)];
}

bool affordable(const Network& network) {
  for (const ConvLayer& l : network.layers()) {
    if (double(l.weight_count()) * l.size * l.size > kMaxLayerMacs) return false;
  }
  return true;
}

Network random_network(std::mt19937_64& rng) {
  for (int attempt = 0; attempt < kMaxTries; ++attempt) {
    const int side = std::uniform_int_distribution<int>(4, 96)(rng);
    cae::nn::ModelDescription description;
    description.name = "random";
    int size = side;
    const int layers = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int i = 0; i < layers; ++i) {
      cae::nn::ConvSpec spec;
      spec.out_channels = log_uniform_channels(rng);
      spec.kernel = random_kernel(rng);
      spec.relu = true;
      // Pool where the size allows it (even, at least 2), not always: odd
      // sizes must meet every op too.
      spec.resize = size % 2 == 0 && size >= 2 && std::bernoulli_distribution(0.7)(rng);
      if (spec.resize) size /= 2;
      description.encoder.push_back(spec);
    }
    const int channels = std::uniform_int_distribution<int>(1, 4)(rng);
    const Network network(description, channels, side);
    if (affordable(network)) return network;
  }
  throw std::logic_error("no affordable random model in " + std::to_string(kMaxTries) + " tries");
}

// The dense single-layer learners of examples/models: one convolution of
// 1,600 filters at stride 1 over RGB, no pooling, decoded by one convolution
// back to RGB; 5x5 and 7x7 as the k-means papers' settings. No preset has
// these shapes (3 channels facing 1,600, 75 and 147 taps per row).
cae::nn::ModelDescription dense_learner(int kernel) {
  cae::nn::ModelDescription d;
  d.name = "dense1600 " + std::to_string(kernel) + "x" + std::to_string(kernel);
  d.encoder = {{1600, kernel, true, false}};
  d.decoder = {{3, kernel, false, false}};
  return d;
}

std::vector<NamedNetwork> networks(const ModelShapeSettings& s) {
  std::vector<NamedNetwork> all;
  // The seed's own layers are the "real layers" of shapes.cpp.
  for (const std::string& name : cae::nn::model_preset_names()) {
    if (name == "seed") continue;
    all.push_back({name, Network(cae::nn::model_preset(name), 3, 32)});
  }
  for (int kernel : {5, 7}) {
    const cae::nn::ModelDescription dense = dense_learner(kernel);
    all.push_back({dense.name, Network(dense, 3, 32)});
  }
  if (s.large) {
    for (const std::string& name : cae::nn::model_preset_names()) {
      all.push_back({name + " 96x96", Network(cae::nn::model_preset(name), 3, 96)});
    }
  }
  std::mt19937_64 rng(s.seed ^ 0x6d6f64656c73ULL);  // "models"
  const int count = s.quick ? std::min(1, s.random_models) : s.random_models;
  for (int i = 0; i < count; ++i) {
    all.push_back({"random model " + std::to_string(i + 1) + " of seed " + std::to_string(s.seed),
                   random_network(rng)});
  }
  return all;
}

}  // namespace

std::vector<ConvCase> model_conv_cases(const ModelShapeSettings& settings, bool forward) {
  std::vector<ConvCase> cases;
  std::set<std::tuple<int64_t, int64_t, int64_t, int64_t, bool, bool>> seen;
  const int64_t batch = 1;  // shapes.cpp varies the batch; these cases vary the layers
  for (const NamedNetwork& model : networks(settings)) {
    const auto& layers = model.network.layers();
    for (size_t i = 0; i < layers.size(); ++i) {
      const ConvLayer& l = layers[i];
      const bool relu = forward && l.relu;
      const bool with_dx = forward || i > 0;  // the model never asks for the input's gradient
      if (!seen.insert({l.in_channels, l.size, l.out_channels, l.kernel, relu, with_dx}).second) {
        continue;
      }
      ConvCase c{{batch, l.in_channels, l.size, l.size, l.out_channels, l.kernel},
                 relu,
                 with_dx,
                 model.label + ": " + l.name};
      c.unsupported_allowed = true;
      cases.push_back(c);
    }
  }
  return cases;
}

namespace {

std::vector<ResizeCase> resize_cases(const ModelShapeSettings& settings, After kind) {
  std::vector<ResizeCase> cases;
  std::set<std::tuple<int64_t, int64_t>> seen;
  const int64_t batch = 1;  // shapes.cpp varies the batch; these cases vary the layers
  for (const NamedNetwork& model : networks(settings)) {
    for (const ConvLayer& l : model.network.layers()) {
      if (l.after != kind || !seen.insert({l.out_channels, l.size}).second) continue;
      cases.push_back({{batch, l.out_channels, l.size, l.size}, model.label + ": " + l.name});
    }
  }
  return cases;
}

}  // namespace

std::vector<ResizeCase> model_pool_cases(const ModelShapeSettings& settings) {
  return resize_cases(settings, After::MaxPool);
}

std::vector<ResizeCase> model_upsample_cases(const ModelShapeSettings& settings) {
  return resize_cases(settings, After::Upsample);
}

}  // namespace conformance
