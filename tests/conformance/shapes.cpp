#include "shapes.hpp"

#include "nn/architecture.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

// The autoencoder at batch 2: small enough for a float64 reference in loops.
constexpr int64_t kBatch = 2;

struct Layer {
  std::string name;
  int64_t c, hw, o;
  bool relu;
};
// conv1..conv5 of the seed network (all 3x3, pad 1), with the ReLU each one
// fuses, as the host's model description derives them.
std::vector<Layer> seed_layers() {
  std::vector<Layer> layers;
  const cae::nn::Network seed = cae::nn::Network::seed();
  for (const cae::nn::ConvLayer& l : seed.layers()) {
    layers.push_back({"conv" + std::to_string(layers.size() + 1), l.in_channels, l.size,
                      l.out_channels, l.relu});
  }
  return layers;
}

// Small convolutions: one channel, odd sizes, a 1x1 image (all padding),
// channel counts that are not multiples of 16, and a narrow side facing a
// side of whole 8-channel groups either way (conv1's and conv5's kinds, which
// a backend may pad: v4 does), or of whole 64-channel groups (v3's and v4's
// own kernel for the products with short rows: conv1's forward, conv5's data
// gradient; 512 outputs take two column blocks, one input channel gives rows
// of 10 of 12).
const cae_ref::ConvDims kSmallConvs[] = {
    {1, 1, 7, 5, 4, 3},   {3, 5, 9, 12, 7, 3},  {3, 2, 1, 1, 2, 3},
    {1, 17, 5, 19, 3, 3}, {3, 5, 9, 12, 16, 3}, {2, 16, 7, 9, 3, 3},
    {3, 3, 9, 12, 64, 3}, {2, 64, 7, 9, 3, 3},  {1, 1, 5, 6, 512, 3}};

// Channel counts that are multiples of 8 and 64, with other kernel sizes and
// image shapes: they reach the paths a backend keeps for wide channels (tile
// shapes, copy-engine boxes) that the model's layers do not choose: odd
// images with 16-24 channels, few outputs of many channels, K = 5 and K = 1
// on whole 8x8 and 4x4 images.
const cae_ref::ConvDims kWideChannelConvs[] = {
    {3, 16, 9, 12, 24, 3}, {2, 64, 6, 10, 8, 3}, {2, 64, 8, 8, 64, 5}, {8, 128, 4, 4, 64, 1}};

// Patch whitening's convolutions (host/nn/backend_patch_whitening.cpp): as
// many outputs as inputs (RGB), S = 3, 5 and 7 over 32x32 images, a chunk of
// 256 images (its reference on sampled images) and tails, no ReLU. A backend
// may refuse S != 3 (the host then convolves), never answer wrongly.
const cae_ref::ConvDims kPatchWhiteningConvs[] = {
    {256, 3, 32, 32, 3, 5}, {44, 3, 32, 32, 3, 3}, {7, 3, 32, 32, 3, 7}};

// Batches past 64 and 256 images (the host's batch sizes), where a backend
// that tiles or chunks the batch could drop or repeat images.
constexpr int64_t kPast64 = 65;
constexpr int64_t kPast256 = 257;

// Real layers at a batch past 64, checked on sampled images: the input layer,
// the bottleneck, and (forward) the output layer that makes test MSE and
// reconstructions; the other layers cost a CPU backend too much at this batch.
std::vector<ConvCase> large_batch_layers(bool quick, bool forward) {
  std::vector<ConvCase> cases;
  for (const Layer& l : seed_layers()) {
    const std::string name = l.name;
    const bool wanted = quick ? name == "conv3"
                              : name == "conv1" || name == "conv3" || (forward && name == "conv5");
    if (!wanted) continue;
    const bool first_layer = name == "conv1";
    ConvCase c{
        {kPast64, l.c, l.hw, l.hw, l.o, 3}, forward && l.relu, forward || !first_layer, name};
    c.sampled = true;
    cases.push_back(c);
  }
  return cases;
}

// Small channels at large batches: every image checked in full. The third
// has more 64-pixel tiles (18,504 pixels) than a persistent grid of 2 blocks
// per multiprocessor has blocks, so its data gradient's short-K product walks
// several tiles per block.
const cae_ref::ConvDims kLargeBatchConvs[] = {
    {kPast256, 3, 6, 5, 4, 3}, {kPast64, 5, 9, 12, 7, 3}, {kPast256, 64, 8, 9, 3, 3}};

std::vector<ConvCase> real_layers(bool quick, bool forward) {
  std::vector<ConvCase> cases;
  for (const Layer& l : seed_layers()) {
    if (quick && std::string(l.name) != "conv3") continue;
    const int64_t n = quick ? 1 : kBatch;
    const bool first_layer = std::string(l.name) == "conv1";  // needs no dx
    cases.push_back(
        {{n, l.c, l.hw, l.hw, l.o, 3}, forward && l.relu, forward || !first_layer, l.name});
  }
  return cases;
}

}  // namespace

std::string ConvCase::label() const {
  std::string text = "x" + dims_str(x()) + " w" + dims_str(w());
  if (relu) text += " relu";
  if (!with_dx) text += " dx=NULL";
  if (!layer.empty()) text += " (" + layer + ")";
  return text;
}

std::vector<ConvCase> conv_forward_cases(bool quick) {
  std::vector<ConvCase> cases;
  for (const cae_ref::ConvDims& d : kSmallConvs) {
    if (quick && d.c == 17) continue;
    cases.push_back({d, false, true, ""});
    cases.push_back({d, true, true, ""});
  }
  for (const cae_ref::ConvDims& d : kWideChannelConvs) cases.push_back({d, true, true, ""});
  for (const cae_ref::ConvDims& d : kPatchWhiteningConvs) {
    if (quick && d.n == 256) continue;
    ConvCase c{d, false, true, "patch whitening"};
    c.sampled = d.n == 256;
    cases.push_back(c);
  }
  for (ConvCase& c : real_layers(quick, true)) cases.push_back(c);
  for (const cae_ref::ConvDims& d : kLargeBatchConvs) {
    if (quick && d.n == kPast256) continue;
    cases.push_back({d, true, true, ""});
  }
  for (ConvCase& c : large_batch_layers(quick, true)) cases.push_back(c);
  for (ConvCase& c : model_conv_cases(suite().models, true)) cases.push_back(c);
  return cases;
}

std::vector<ConvCase> conv_backward_cases(bool quick) {
  std::vector<ConvCase> cases;
  for (const cae_ref::ConvDims& d : kSmallConvs) {
    if (quick && d.c == 17) continue;
    cases.push_back({d, false, true, ""});
  }
  cases.push_back({kSmallConvs[1], false, false, ""});  // dx == NULL on a small shape too
  for (const cae_ref::ConvDims& d : kWideChannelConvs) cases.push_back({d, false, true, ""});
  for (ConvCase& c : real_layers(quick, false)) cases.push_back(c);
  for (const cae_ref::ConvDims& d : kLargeBatchConvs) {
    if (quick && d.n == kPast256) continue;
    cases.push_back({d, false, true, ""});
  }
  for (ConvCase& c : large_batch_layers(quick, false)) cases.push_back(c);
  for (ConvCase& c : model_conv_cases(suite().models, false)) cases.push_back(c);
  return cases;
}

std::vector<Dims> pool_input_shapes(bool quick) {
  if (quick) return {{1, 1, 2, 2}, {3, 2, 6, 10}, {1, 128, 16, 16}, {kPast64, 2, 4, 6}};
  return {{1, 1, 2, 2},          {3, 1, 6, 10},       {3, 5, 14, 18},        {kBatch, 256, 32, 32},
          {kBatch, 128, 16, 16}, {kPast256, 2, 4, 6}, {kPast64, 128, 16, 16}};
}

std::vector<Dims> upsample_input_shapes(bool quick) {
  if (quick) return {{1, 1, 1, 1}, {3, 2, 7, 5}, {1, 128, 8, 8}, {kPast64, 2, 3, 5}};
  return {{1, 1, 1, 1},          {3, 2, 7, 5},        {1, 3, 9, 12},       {kBatch, 128, 8, 8},
          {kBatch, 256, 16, 16}, {kPast256, 2, 3, 5}, {kPast64, 128, 8, 8}};
}

std::vector<Dims> elementwise_shapes(bool quick) {
  if (quick) return {{1}, {3, 5, 9, 12}, {kBatch, 128, 16, 16}, {kPast64, 2, 3, 5}};
  // Up to a full training batch of images: mse_loss must stay accurate there.
  return {{1}, {7}, {3, 5, 9, 12}, {256, 128, 3, 3}, {64, 3, 32, 32}, {kPast256, 3, 7, 5}};
}

std::string KernelCase::label() const {
  return "x[" + std::to_string(n) + "," + std::to_string(d) + "] " +
         (same_xy ? "y=x" : "y[" + std::to_string(m) + "," + std::to_string(d) + "]");
}

std::vector<KernelCase> kernel_cases(bool quick) {
  // A side of at most 16 rows is the linear classifier's shape (scores: many
  // rows against 10 classes; gradient: 10 residual rows against many
  // feature columns), which CUDA backends may run on a kernel of its own:
  // cases with the short side on either operand, row counts that leave a
  // partial block, and lengths that leave a partial chunk of columns.
  if (quick) {
    return {{1, 1, 1, false},     {7, 5, 3, false},   {9, 9, 300, true},
            {67, 10, 276, false}, {3, 40, 20, false}, {65, 9, 20, false}};
  }
  // d = 8192 is the latent size the SVM stage uses. Few long rows of many
  // columns (200 x 4,100) are cut into column parts of more than one chunk.
  return {{1, 1, 1, false},       {7, 5, 3, false},     {37, 29, 8192, false},
          {33, 33, 300, true},    {257, 65, 40, false}, {1029, 10, 1100, false},
          {10, 1500, 516, false}, {65, 16, 260, false}, {65, 65, 130, true},
          {200, 10, 4100, false}};
}

}  // namespace conformance
