// Sparse codes for the autoencoder, built from the ABI's existing ops (no
// backend op of their own), and --sparsity's names:
//   l1:LAMBDA    an L1 penalty on the latent (its gradient added in backward);
//   wta-spatial  winner-take-all over space: the decoder sees, of each latent
//                map of each image, only its largest value, at its place
//                (Makhzani & Frey's spatial sparsity); the encoder's features
//                stay dense.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "nn/architecture.hpp"
#include "plugin/context.hpp"

namespace cae::nn {

inline constexpr double kMaxLatentL1 = 1e3;

struct Sparsity {
  float l1 = 0;              // the L1 penalty's lambda; 0: none
  bool spatial_wta = false;  // winner-take-all over each latent map
  bool none() const { return l1 == 0 && !spatial_wta; }
  bool operator==(const Sparsity& other) const {
    return l1 == other.l1 && spatial_wta == other.spatial_wta;
  }
};

// "none", "l1:LAMBDA" (LAMBDA a finite number > 0, at most kMaxLatentL1) or
// "wta-spatial"; anything else throws std::invalid_argument naming the value.
Sparsity parse_sparsity(const std::string& text);
// parse_sparsity's input for `sparsity`.
std::string sparsity_name(const Sparsity& sparsity);

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

// Throws std::invalid_argument unless maps of `side` x `side` can take the
// spatial winner-take-all (side a power of two: the 2x2 pools halve it to 1).
void check_spatial_wta_side(int64_t side);
// The same for `network`'s latent maps when `sparsity` asks for it: checked
// before a run starts, so a misfit is refused before anything is written.
void require_sparsity_fits(const Network& network, const Sparsity& sparsity);

// Spatial winner-take-all of post-ReLU latent maps [N, C, S, S], S a power of
// two, from the 2x2 max pool: pooling log2(S) times gives each map's maximum,
// and the pools' backward passes, fed those maxima, put each back at the
// place its pools chose (one place per map, ties as the backend's pool breaks
// them) with zeros elsewhere: the code. Its gradient reaches the latent only
// at the winners: relu_backward(y = code, dy) keeps dy where the code is
// positive (a map whose largest value is 0 passes none, as ReLU's subgradient).
class SpatialWinnerTakeAll {
 public:
  // Buffers on `context` for latents of `dims` [N, C, S, S].
  SpatialWinnerTakeAll(Context& context, const std::vector<int64_t>& dims);
  // code() = the winners of `latent` (shaped like it).
  void forward(const Tensor& latent);
  const Tensor& code() const { return code_; }
  // d (the gradient of the code, in place) becomes the latent's gradient.
  void backward(Tensor& d);

 private:
  Context& context_;
  std::vector<Tensor> pooled_;    // S/2, S/4, ..., 1
  std::vector<Tensor> unpooled_;  // the pools' backward outputs, S/2 ... 2 (largest first)
  Tensor code_;
};

}  // namespace cae::nn
