#include "op_shapes.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace cae_plugin {
namespace {

std::string named(const char* op, const char* what) { return std::string(op) + ": " + what; }

void require_rank(const char* op, const char* name, const Shape& s, int rank) {
  CAE_REQUIRE(s.ndim == rank, std::string(op) + ": " + name + " must have " + std::to_string(rank) +
                              " dimensions, got " + s.str());
}

}  // namespace

ConvDims check_conv2d_forward(const Shape& x, const Shape& w, const Shape& b, const Shape& y,
                              int32_t fuse_relu) {
  const char* op = "conv2d_forward";
  require_rank(op, "x", x, 4);
  require_rank(op, "w", w, 4);
  require_rank(op, "b", b, 1);
  require_rank(op, "y", y, 4);
  ConvDims d{x[0], x[1], x[2], x[3], w[0], w[2]};
  CAE_REQUIRE(w[1] == d.C, named(op, "w ") + w.str() + " does not match the " +
                           std::to_string(d.C) + " input channels of x " + x.str());
  CAE_REQUIRE(w[2] == w[3] && (d.K % 2) == 1,
          named(op, "w ") + w.str() + " must have a square, odd kernel");
  CAE_REQUIRE(b[0] == d.O, named(op, "b ") + b.str() + " must have " + std::to_string(d.O) + " elements");
  CAE_REQUIRE(y[0] == d.N && y[1] == d.O && y[2] == d.H && y[3] == d.W,
          named(op, "y ") + y.str() + " must be [" + std::to_string(d.N) + "," +
              std::to_string(d.O) + "," + std::to_string(d.H) + "," + std::to_string(d.W) + "]");
  CAE_REQUIRE(fuse_relu == 0 || fuse_relu == 1,
          named(op, "fuse_relu must be 0 or 1, got ") + std::to_string(fuse_relu));
  return d;
}

ConvDims check_conv2d_backward(const Shape& x, const Shape& w, const Shape& dy, const Shape* dx,
                               const Shape& dw, const Shape& db) {
  const char* op = "conv2d_backward";
  require_rank(op, "x", x, 4);
  require_rank(op, "w", w, 4);
  require_rank(op, "dy", dy, 4);
  ConvDims d{x[0], x[1], x[2], x[3], w[0], w[2]};
  CAE_REQUIRE(w[1] == d.C && w[2] == w[3] && (d.K % 2) == 1,
          named(op, "w ") + w.str() + " does not fit x " + x.str());
  CAE_REQUIRE(dy[0] == d.N && dy[1] == d.O && dy[2] == d.H && dy[3] == d.W,
          named(op, "dy ") + dy.str() + " does not fit x " + x.str() + " and w " + w.str());
  if (dx) check_same_shape(op, "dx", *dx, "x", x);
  check_same_shape(op, "dw", dw, "w", w);
  CAE_REQUIRE(db.ndim == 1 && db[0] == d.O,
          named(op, "db ") + db.str() + " must have " + std::to_string(d.O) + " elements");
  return d;
}

void check_same_count(const char* op, const char* a_name, const Shape& a, const char* b_name,
                      const Shape& b) {
  CAE_REQUIRE(a.count() == b.count(), std::string(op) + ": " + a_name + " " + a.str() + " and " +
                                      b_name + " " + b.str() + " differ in element count");
}

void check_same_shape(const char* op, const char* a_name, const Shape& a, const char* b_name,
                      const Shape& b) {
  bool same = a.ndim == b.ndim;
  for (int i = 0; same && i < a.ndim; ++i) same = a[i] == b[i];
  CAE_REQUIRE(same, std::string(op) + ": " + a_name + " " + a.str() + " must have the shape of " +
                    b_name + " " + b.str());
}

void check_pool2x2(const char* op, const Shape& big, const Shape& small) {
  require_rank(op, "input", big, 4);
  require_rank(op, "output", small, 4);
  CAE_REQUIRE(big[2] % 2 == 0 && big[3] % 2 == 0,
          std::string(op) + ": height and width of " + big.str() + " must be even");
  CAE_REQUIRE(small[0] == big[0] && small[1] == big[1] && small[2] * 2 == big[2] &&
              small[3] * 2 == big[3],
          std::string(op) + ": " + small.str() + " is not half of " + big.str());
}

void check_upsample2x(const char* op, const Shape& small, const Shape& big) {
  require_rank(op, "input", small, 4);
  require_rank(op, "output", big, 4);
  CAE_REQUIRE(small[0] == big[0] && small[1] == big[1] && small[2] * 2 == big[2] &&
              small[3] * 2 == big[3],
          std::string(op) + ": " + big.str() + " is not twice " + small.str());
}

void check_transfer_count(const char* op, const Shape& shape, size_t count) {
  CAE_REQUIRE(count == static_cast<size_t>(shape.count()),
              std::string(op) + ": count " + std::to_string(count) + " does not match the " +
                  std::to_string(shape.count()) + " elements of tensor " + shape.str());
}

void check_mse(const Shape& pred, const Shape& target, const Shape& loss, const Shape* grad) {
  check_same_count("mse_loss", "pred", pred, "target", target);
  CAE_REQUIRE(loss.count() == 1, "mse_loss: loss must have exactly 1 element, got " + loss.str());
  if (grad) check_same_count("mse_loss", "grad", *grad, "pred", pred);
}

KernelDims check_kernel_matrix(const Shape& x, const Shape& y, const Shape& k, int32_t kind,
                               float gamma) {
  const char* op = "kernel_matrix";
  require_rank(op, "x", x, 2);
  require_rank(op, "y", y, 2);
  require_rank(op, "k", k, 2);
  CAE_REQUIRE(x[1] == y[1], named(op, "x ") + x.str() + " and y " + y.str() +
                            " differ in feature dimension");
  CAE_REQUIRE(k[0] == x[0] && k[1] == y[0], named(op, "k ") + k.str() + " must be [" +
                                            std::to_string(x[0]) + "," + std::to_string(y[0]) +
                                            "]");
  CAE_REQUIRE(kind == CAE_KERNEL_LINEAR || kind == CAE_KERNEL_RBF,
          named(op, "unknown kernel kind ") + std::to_string(kind));
  CAE_REQUIRE(kind != CAE_KERNEL_RBF || gamma > 0.0f,
          named(op, "RBF gamma must be > 0, got ") + std::to_string(gamma));
  return {x[0], y[0], x[1]};
}

KernelDims check_kernel_rbf_from_linear(const Shape& x, const Shape& y, const Shape& linear,
                                        const Shape& k, float gamma) {
  const char* op = "kernel_rbf_from_linear";
  require_rank(op, "x", x, 2);
  require_rank(op, "y", y, 2);
  require_rank(op, "linear", linear, 2);
  require_rank(op, "k", k, 2);
  CAE_REQUIRE(x[1] == y[1], named(op, "x ") + x.str() + " and y " + y.str() +
                            " differ in feature dimension");
  const std::string wanted = "[" + std::to_string(x[0]) + "," + std::to_string(y[0]) + "]";
  CAE_REQUIRE(linear[0] == x[0] && linear[1] == y[0],
              named(op, "linear ") + linear.str() + " must be " + wanted);
  CAE_REQUIRE(k[0] == x[0] && k[1] == y[0], named(op, "k ") + k.str() + " must be " + wanted);
  CAE_REQUIRE(gamma > 0.0f && std::isfinite(gamma),
              named(op, "gamma must be > 0 and finite, got ") + std::to_string(gamma));
  return {x[0], y[0], x[1]};
}

LinearLossDims check_linear_loss(const Shape& scores, const Shape& bias, const Shape& targets,
                                 int32_t kind, float scale, const Shape& residuals,
                                 const Shape& sums, bool aliased) {
  const char* op = "linear_loss";
  require_rank(op, "scores", scores, 2);
  const int64_t n = scores[0], k = scores[1];
  const int64_t blocks = (n + CAE_LINEAR_LOSS_BLOCK_ROWS - 1) / CAE_LINEAR_LOSS_BLOCK_ROWS;
  const std::string rows = std::to_string(n), classes = std::to_string(k);
  CAE_REQUIRE(bias.ndim == 1 && bias[0] == k,
              named(op, "bias ") + bias.str() + " must be [" + classes + "]");
  CAE_REQUIRE(targets.ndim == 1 && targets[0] == n,
              named(op, "targets ") + targets.str() + " must be [" + rows + "]");
  CAE_REQUIRE(residuals.ndim == 2 && residuals[0] == k && residuals[1] == n,
              named(op, "residuals ") + residuals.str() + " must be [" + classes + "," + rows +
                  "] (the scores' transpose)");
  CAE_REQUIRE(sums.ndim == 3 && sums[0] == blocks && sums[1] == k + 1 && sums[2] == 2,
              named(op, "sums ") + sums.str() + " must be [" + std::to_string(blocks) + "," +
                  std::to_string(k + 1) + ",2]");
  CAE_REQUIRE(kind == CAE_LINEAR_LOSS_CROSS_ENTROPY || kind == CAE_LINEAR_LOSS_SQUARED_HINGE,
              named(op, "unknown loss kind ") + std::to_string(kind));
  CAE_REQUIRE(scale > 0.0f && std::isfinite(scale),
              named(op, "scale must be > 0 and finite, got ") + std::to_string(scale));
  CAE_REQUIRE(!aliased, named(op, "residuals and sums must be tensors other than the inputs"));
  return {n, k, blocks};
}

TransposeDims check_transpose(const Shape& x, const Shape& y, bool same) {
  const char* op = "transpose";
  require_rank(op, "x", x, 2);
  CAE_REQUIRE(y.ndim == 2 && y[0] == x[1] && y[1] == x[0],
              named(op, "y ") + y.str() + " must be [" + std::to_string(x[1]) + "," +
                  std::to_string(x[0]) + "] (x " + x.str() + " transposed)");
  CAE_REQUIRE(!same, named(op, "y must be a tensor other than x"));
  return {x[0], x[1]};
}

int64_t check_add_normal_noise(const Shape& x, const Shape& y, float sigma) {
  const char* op = "add_normal_noise";
  check_same_shape(op, "y", y, "x", x);
  CAE_REQUIRE(std::isfinite(sigma) && sigma >= 0.0f,
              named(op, "sigma must be finite and >= 0, got ") + std::to_string(sigma));
  return x.count();
}

ChannelCodeDims check_channel_code(const Shape& x, const Shape& y, bool same, int32_t code,
                                   float bias) {
  const char* op = "channel_code";
  CAE_REQUIRE(code == CAE_CHANNEL_CODE_CENTRED || code == CAE_CHANNEL_CODE_SPLIT,
              named(op, "code ") + std::to_string(code) + " is neither CENTRED (0) nor SPLIT (1)");
  CAE_REQUIRE(std::isfinite(bias), named(op, "bias must be finite, got ") + std::to_string(bias));
  require_rank(op, "x", x, 4);
  require_rank(op, "y", y, 4);
  const int64_t channels = code == CAE_CHANNEL_CODE_SPLIT ? 2 * x[1] : x[1];
  CAE_REQUIRE(y[0] == x[0] && y[1] == channels && y[2] == x[2] && y[3] == x[3],
              named(op, "y ") + y.str() + " must be [N, " +
                  (code == CAE_CHANNEL_CODE_SPLIT ? "2C" : "C") + ", H, W] for x " + x.str());
  CAE_REQUIRE(!same, named(op, "y must be a tensor other than x"));
  return {x[0], x[1], x[2] * x[3]};
}

void check_svm_dual_header(int32_t index, const cae_svm_dual_problem* problem) {
  const std::string name = "svm_dual_solve: problem " + std::to_string(index);
  CAE_REQUIRE(problem != nullptr, name + " is NULL");
  CAE_REQUIRE(problem->struct_size >= sizeof(cae_svm_dual_problem),
              name + ": struct_size " + std::to_string(problem->struct_size) +
                  " is smaller than the ABI 1.8 problem (" +
                  std::to_string(sizeof(cae_svm_dual_problem)) + " bytes)");
}

SvmDualDims check_svm_dual_problem(int32_t index, const cae_svm_dual_problem& problem,
                                   const SvmDualShapes& shapes) {
  const std::string op = "svm_dual_solve: problem " + std::to_string(index);
  const char* name = op.c_str();
  require_rank(name, "kernel_aa", shapes.aa, 2);
  require_rank(name, "kernel_bb", shapes.bb, 2);
  const SvmDualDims d{shapes.aa[0], shapes.bb[0]};
  auto square = [&](const char* what, const Shape& s, int64_t rows, int64_t cols) {
    require_rank(name, what, s, 2);
    CAE_REQUIRE(s[0] == rows && s[1] == cols,
                op + ": " + what + " " + s.str() + " must be [" + std::to_string(rows) + "," +
                    std::to_string(cols) + "]");
  };
  square("kernel_aa", shapes.aa, d.n_a, d.n_a);
  square("kernel_bb", shapes.bb, d.n_b, d.n_b);
  square("kernel_ab", shapes.ab, d.n_a, d.n_b);
  if (shapes.ba) square("kernel_ba", *shapes.ba, d.n_b, d.n_a);
  for (const auto& [what, s] : {std::pair<const char*, const Shape*>{"alpha", &shapes.alpha},
                                std::pair<const char*, const Shape*>{"gradient", &shapes.gradient}}) {
    CAE_REQUIRE(s->ndim == 1 && (*s)[0] == d.rows(),
                op + ": " + what + " " + s->str() + " must be [" + std::to_string(d.rows()) + "]");
  }
  CAE_REQUIRE(std::isfinite(problem.C) && problem.C > 0.0,
              op + ": C must be a positive number, got " + std::to_string(problem.C));
  CAE_REQUIRE(std::isfinite(problem.eps) && problem.eps > 0.0,
              op + ": eps must be a positive number, got " + std::to_string(problem.eps));
  CAE_REQUIRE(problem.max_iterations >= 1,
              op + ": max_iterations must be >= 1, got " + std::to_string(problem.max_iterations));
  return d;
}

void check_svm_dual_start(int32_t index, const SvmDualDims& dims, double C, const float* alpha,
                          const float* gradient) {
  const std::string op = "svm_dual_solve: problem " + std::to_string(index);
  double balance = 0.0;  // y'alpha
  double scale = 0.0;    // sum |alpha|, what rounding of y'alpha is relative to
  for (int64_t t = 0; t < dims.rows(); ++t) {
    const double a = alpha[t];
    CAE_REQUIRE(std::isfinite(a) && a >= 0.0 && a <= C,
                op + ": alpha[" + std::to_string(t) + "] = " + std::to_string(a) +
                    " lies outside [0, C = " + std::to_string(C) + "]");
    CAE_REQUIRE(std::isfinite(gradient[t]),
                op + ": gradient[" + std::to_string(t) + "] is not a finite number");
    balance += t < dims.n_a ? a : -a;
    scale += a;
  }
  CAE_REQUIRE(std::fabs(balance) <= 1e-4 * std::max(scale, 1.0),
              op + ": alpha is not balanced: y'alpha = " + std::to_string(balance) +
                  " (the classes' sums must be equal)");
}

void check_sgd(const Shape& param, const Shape& grad, const Shape* velocity, float learning_rate,
               float momentum, float weight_decay) {
  check_same_count("sgd_step", "grad", grad, "param", param);
  CAE_REQUIRE(momentum >= 0.0f && momentum < 1.0f,
          "sgd_step: momentum must be in [0, 1), got " + std::to_string(momentum));
  CAE_REQUIRE(velocity || momentum == 0.0f, "sgd_step: velocity is NULL but momentum is not 0");
  if (velocity) check_same_count("sgd_step", "velocity", *velocity, "param", param);
  CAE_REQUIRE(learning_rate >= 0.0f, "sgd_step: learning_rate must be >= 0");
  CAE_REQUIRE(weight_decay >= 0.0f, "sgd_step: weight_decay must be >= 0");
}

void check_adam(const Shape& param, const Shape& grad, const Shape& m, const Shape& v,
                const cae_adam_params* params) {
  check_same_count("adam_step", "grad", grad, "param", param);
  check_same_count("adam_step", "m", m, "param", param);
  check_same_count("adam_step", "v", v, "param", param);
  CAE_REQUIRE(params != nullptr, "adam_step: params is NULL");
  CAE_REQUIRE(params->step >= 1, "adam_step: step must be >= 1, got " + std::to_string(params->step));
  CAE_REQUIRE(params->beta1 >= 0.0f && params->beta1 < 1.0f && params->beta2 >= 0.0f &&
              params->beta2 < 1.0f,
          "adam_step: beta1 and beta2 must be in [0, 1)");
  CAE_REQUIRE(params->epsilon > 0.0f, "adam_step: epsilon must be > 0");
  CAE_REQUIRE(params->learning_rate >= 0.0f, "adam_step: learning_rate must be >= 0");
}

}  // namespace cae_plugin
