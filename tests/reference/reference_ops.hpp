// A float64 reference of every op in api/cae/backend.h, written as plain loops
// that follow the header's contracts literally. The conformance suite compares
// each backend against it, so it favours obviously-correct code over speed.
//
// Layouts are the ABI's boundary layouts: activations NCHW, conv weights OIHW,
// biases [O], matrices row-major. Every function checks the sizes of its
// arguments and throws std::invalid_argument on a mismatch (a bug in the caller).
#pragma once

#include <cstdint>
#include <vector>

namespace cae_ref {

using Vec = std::vector<double>;

// An activation tensor's shape, NCHW.
struct ImageDims {
  int64_t n, c, h, w;
  int64_t count() const { return n * c * h * w; }
};

// One convolution: x [n,c,h,w], w [o,c,k,k], b [o], y [n,o,h,w].
struct ConvDims {
  int64_t n, c, h, w, o, k;
  ImageDims input() const { return {n, c, h, w}; }
  ImageDims output() const { return {n, o, h, w}; }
  int64_t weight_count() const { return o * c * k * k; }
};

// y = [ReLU](conv(x, w) + b), stride 1, zero "same" padding of k/2 (k odd).
Vec conv2d_forward(const ConvDims& d, const Vec& x, const Vec& w, const Vec& b, bool fuse_relu);

struct ConvGradients {
  Vec dx;  // empty when not requested
  Vec dw;
  Vec db;
};

// Gradients of y = conv(x, w) + b for dy = dL/dy; dw and db summed over the batch.
ConvGradients conv2d_backward(const ConvDims& d, const Vec& x, const Vec& w, const Vec& dy,
                              bool want_dx);

// y = max(x, 0).
Vec relu_forward(const Vec& x);
// dx = dy where y > 0, else 0 (y is the ReLU's output).
Vec relu_backward(const Vec& y, const Vec& dy);

// 2x2 max-pool, stride 2, of x (h and w even) -> [n,c,h/2,w/2].
Vec maxpool2x2_forward(const ImageDims& x_dims, const Vec& x);
// Each window's gradient goes to the FIRST element equal to the window max in
// the order (0,0), (0,1), (1,0), (1,1); the other three get 0.
Vec maxpool2x2_backward(const ImageDims& x_dims, const Vec& x, const Vec& dy);

// Nearest-neighbour 2x upsample of x -> [n,c,2h,2w].
Vec upsample2x_forward(const ImageDims& x_dims, const Vec& x);
// dx [x_dims] = sum of dy [n,c,2h,2w] over each 2x2 block.
Vec upsample2x_backward(const ImageDims& x_dims, const Vec& dy);

struct MseResult {
  double loss;  // sum((pred - target)^2) / E
  Vec grad;     // 2 (pred - target) / E
};
MseResult mse_loss(const Vec& pred, const Vec& target);

// SGD with heavy-ball momentum, in place. velocity may be nullptr only when
// momentum == 0 (plain SGD).
void sgd_step(Vec& param, const Vec& grad, Vec* velocity, double learning_rate, double momentum,
              double weight_decay);

struct AdamParams {
  double learning_rate, beta1, beta2, epsilon, weight_decay;
  int step;  // 1 for the first update
};
// Adam with bias correction and L2 weight decay added to the gradient, in place.
void adam_step(Vec& param, const Vec& grad, Vec& m, Vec& v, const AdamParams& p);

enum class KernelKind { linear, rbf };

// K [n,m] for row-major x [n,d] and y [m,d]: <x_i, y_j> or exp(-gamma ||x_i - y_j||^2).
Vec kernel_matrix(const Vec& x, int64_t n, const Vec& y, int64_t m, int64_t d, KernelKind kind,
                  double gamma);

}  // namespace cae_ref
