// How far a backend's output may lie from the float64 reference, per op.
//
// A bound is tolerance * scale_i for each element i (compare.hpp):
//   - scale_i is the magnitude of the terms the op combines into element i,
//     computed here from the same float32 inputs the backend received (for a
//     dot product sum_k |a_k| |b_k|; for the Adam update the magnitudes of
//     every term of every line of the header's formula);
//   - the tolerance says how much rounding the arithmetic may add per unit of
//     that magnitude: the declared precision for matrix products, float32 for
//     everything else, plus a term that grows with sqrt(terms) for long
//     float32 accumulations (the probabilistic bound of a sum's rounding).
// docs/abi.md ("What cae-conformance requires") states the same rules for
// backend authors; keep the two in step.
#pragma once

#include <cstdint>

#include "device_data.hpp"
#include "reference_ops.hpp"

namespace conformance {

// Element-wise float32 arithmetic (ReLU, pooling, upsampling, MSE gradient,
// optimizers): about 80 float32 ulps of the scale, whatever precision the
// backend declares for matrix products.
double elementwise_tolerance();

// A matrix product or convolution of `terms` products per output element at
// the backend's declared precision (fp32 1e-5, tf32 and fp16 2.5e-3, bf16 2e-2:
// twice the rounding of each factor, truncation allowed), plus the float32
// accumulation of that many terms.
double product_tolerance(int64_t terms);
// The relative error a product may have at the backend's declared precision
// before accumulation (product_tolerance without its accumulation term).
double declared_precision_tolerance();

// A float32 sum of `terms` values (the MSE loss): elementwise tolerance plus
// the accumulation term.
double reduction_tolerance(int64_t terms);

namespace bounds {

using cae_ref::Vec;

// |v_i|: for outputs that select or copy an input.
Vec magnitude(const Vec& v);

// conv2d_forward: sum |x||w| over each output's window, plus |b|.
Vec conv_forward(const cae_ref::ConvDims& d, const Vec& x, const Vec& w, const Vec& b);
// conv2d_backward: the same sums for dx, dw and db (dx empty when not wanted).
cae_ref::ConvGradients conv_backward(const cae_ref::ConvDims& d, const Vec& x, const Vec& w,
                                     const Vec& dy, bool want_dx);

// upsample2x_backward: sum of |dy| over each 2x2 block.
Vec upsample_backward(const cae_ref::ImageDims& x_dims, const Vec& dy);

// mse_loss: the loss (a sum of squares, so every term counts: the loss itself
// plus the rounding of each difference) and the gradient 2 (|p| + |t|) / E.
struct MseScale {
  double loss;
  Vec grad;
};
MseScale mse(const Vec& pred, const Vec& target);

// sgd_step: new param and velocity.
struct SgdScale {
  Vec param, velocity;
};
SgdScale sgd(const Vec& param, const Vec& grad, const Vec* velocity, double learning_rate,
             double momentum, double weight_decay);

// adam_step: new param, m and v. `v_new` is the reference's new v (the
// update divides by its square root).
struct AdamScale {
  Vec param, m, v;
};
AdamScale adam(const Vec& param, const Vec& grad, const Vec& m, const Vec& v, const Vec& v_new,
               const cae_ref::AdamParams& p);

// kernel_matrix: linear sum |x||y|; RBF K (1 + gamma (|x|^2 + |y|^2 + 2 sum |x||y|)),
// the error of exp(-gamma d2) when d2 is formed as |x|^2 + |y|^2 - 2 <x, y>.
Vec kernel(const Vec& x, int64_t n, const Vec& y, int64_t m, int64_t d, cae_ref::KernelKind kind,
           double gamma, const Vec& k_ref);

}  // namespace bounds
}  // namespace conformance
