// The shapes of whole networks, so that a backend cannot pass by handling
// only the seed's layers: every layer of every model preset (on CIFAR's
// 32x32 images, and with --large-models on STL-10's 96x96), and of random
// models drawn from the run's seed (--models N of them: 1 to 3 encoder
// convolutions of 1..512 channels, kernels 1/3/5/7, images of side 4..96,
// odd map sizes wherever no pool follows), each convolution at its layer's
// shape, each pool and upsample at its input's. A random layer is kept under
// a cost cap so that the float64 reference stays affordable. Labels name the
// model and layer ("random model 2 of seed 17: decoder.conv1"), so a failure
// can be repeated with --seed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shapes.hpp"

namespace conformance {

struct ModelShapeSettings {
  uint64_t seed = 1;
  int random_models = 2;
  bool large = false;  // presets on 96x96 images too
  bool quick = false;  // one random model, batch 1
};

std::vector<ConvCase> model_conv_cases(const ModelShapeSettings& settings, bool forward);

struct ResizeCase {
  Dims dims;          // the op's input
  std::string layer;  // "wide encoder.conv1"
};
std::vector<ResizeCase> model_pool_cases(const ModelShapeSettings& settings);
std::vector<ResizeCase> model_upsample_cases(const ModelShapeSettings& settings);

}  // namespace conformance
