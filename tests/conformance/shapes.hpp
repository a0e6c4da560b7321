// The shapes every op is checked at: odd batches (1, 3), one channel,
// non-square sizes that are not multiples of 16, the autoencoder's real
// layers at a small batch, and batches past any plausible internal tile or
// chunk (65 and 257 images: the host's batches are 64 to 256), for every op, some of
// them at real layer shapes. --quick keeps a few of each, a batch of 65 among them.
#pragma once

#include <string>
#include <vector>

#include "device_data.hpp"
#include "reference_ops.hpp"

namespace conformance {

struct ConvCase {
  cae_ref::ConvDims dims;
  bool relu;          // forward: fuse the ReLU
  bool with_dx;       // backward: request dx (the first layer does not)
  std::string layer;  // "conv2" for the autoencoder's layers, "" otherwise
  // A large batch at a real layer's shape: the reference is computed for a
  // sample of images (always 0, 63, 64 and the last) to keep it affordable.
  bool sampled = false;
  // A layer of a whole model (model_shapes.hpp): CAE_STATUS_UNSUPPORTED is an
  // accepted answer at any kernel size (the host then names the layer to the
  // user); a wrong result is not.
  bool unsupported_allowed = false;

  Dims x() const { return {dims.n, dims.c, dims.h, dims.w}; }
  Dims w() const { return {dims.o, dims.c, dims.k, dims.k}; }
  Dims b() const { return {dims.o}; }
  Dims y() const { return {dims.n, dims.o, dims.h, dims.w}; }
  std::string label() const;  // "x[3,1,7,5] w[4,1,3,3] relu (conv2)"
  // Floating-point operations of one forward pass (a backward pass: twice
  // that); it scales the check's time limit (watchdog.hpp).
  double work() const {
    return 2.0 * double(dims.n) * double(dims.o) * double(dims.c) * double(dims.h) *
           double(dims.w) * double(dims.k) * double(dims.k);
  }
};

std::vector<ConvCase> conv_forward_cases(bool quick);
std::vector<ConvCase> conv_backward_cases(bool quick);

// Inputs of the 2x2 max-pool ([N,C,H,W], H and W even) and of the upsample.
std::vector<Dims> pool_input_shapes(bool quick);
std::vector<Dims> upsample_input_shapes(bool quick);

// Any-shape element-wise ops (relu, mse, optimizers).
std::vector<Dims> elementwise_shapes(bool quick);

struct KernelCase {
  int64_t n, m, d;
  bool same_xy;  // y is the same tensor as x (allowed by the ABI)
  std::string label() const;
};
std::vector<KernelCase> kernel_cases(bool quick);

}  // namespace conformance
