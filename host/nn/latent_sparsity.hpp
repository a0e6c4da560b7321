// Sparse codes for the autoencoder: an L1 penalty on the latent, built from
// the ABI's existing ops (no backend op of its own), and --sparsity's names.
#pragma once

#include <string>

#include "plugin/context.hpp"

namespace cae::nn {

inline constexpr double kMaxLatentL1 = 1e3;

// "none" (0) or "l1:LAMBDA" (LAMBDA a finite number > 0, at most kMaxLatentL1);
// anything else throws std::invalid_argument naming the value.
float parse_sparsity(const std::string& text);
// parse_sparsity's input for `lambda`: "none" or "l1:LAMBDA".
std::string sparsity_name(float lambda);

// d_latent += coefficient where latent > 0: the gradient of
// coefficient * sum(|latent|) for a post-ReLU latent (never negative, so
// |z| = z, whose derivative is 1 where z > 0 and, as a subgradient, 0 at 0).
// Two existing ABI calls, no op of its own:
//   relu_backward(y = latent, dy = minus_ones) -> mask = -1 where z > 0, else 0
//   sgd_step(param = d_latent, grad = mask, lr = coefficient, no momentum,
//            no weight decay): param -= lr * grad, i.e. += coefficient where z > 0.
// The mask is negative because the ABI's learning rates are >= 0 (a backend
// refuses a negative one). `minus_ones` holds -1.0 everywhere; all four
// tensors are shaped alike; coefficient >= 0.
void add_latent_l1_gradient(Context& context, const Tensor& latent, Tensor& d_latent,
                            const Tensor& minus_ones, Tensor& mask, float coefficient);

}  // namespace cae::nn
