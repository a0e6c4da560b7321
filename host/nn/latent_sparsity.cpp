#include "nn/latent_sparsity.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "common/float_range.hpp"

namespace cae::nn {

Sparsity parse_sparsity(const std::string& text) {
  if (text == "none") return {};
  if (text == "wta-spatial") return {0.0f, true};
  const std::string prefix = "l1:";
  if (text.rfind(prefix, 0) != 0) {
    throw std::invalid_argument("--sparsity '" + text +
                                "' is not none, l1:LAMBDA or wta-spatial");
  }
  const std::string value = text.substr(prefix.size());
  char* end = nullptr;
  const double lambda = value.empty() ? 0.0 : std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0') {
    throw std::invalid_argument("--sparsity '" + text + "': LAMBDA '" + value + "' is not a number");
  }
  if (!(lambda > 0.0 && lambda <= kMaxLatentL1)) {
    throw std::invalid_argument("--sparsity '" + text +
                                "': LAMBDA must be a finite number above 0 and at most 1000 "
                                "(none for no penalty)");
  }
  // The penalty is applied in float: a LAMBDA below its range would train
  // without sparsity while the checkpoint records none.
  if (!fits_float(lambda)) {
    throw std::invalid_argument("--sparsity '" + text +
                                "': LAMBDA is outside the range of a float (" + kFloatRangeText +
                                "); it would be 0 in training");
  }
  return {float(lambda), false};
}

std::string sparsity_name(const Sparsity& sparsity) {
  if (sparsity.spatial_wta) return "wta-spatial";
  if (sparsity.l1 == 0.0f) return "none";
  // The shortest text that reads back as the same float ("l1:0.1").
  char text[40];
  for (int digits = 6; digits <= 9; ++digits) {
    std::snprintf(text, sizeof text, "l1:%.*g", digits, double(sparsity.l1));
    if (std::strtof(text + 3, nullptr) == sparsity.l1) break;
  }
  return text;
}

void add_latent_l1_gradient(Context& context, const Tensor& latent, Tensor& d_latent,
                            const Tensor& minus_ones, Tensor& mask, float coefficient) {
  context.relu_backward(latent, minus_ones, mask);
  context.sgd_step(d_latent, mask, nullptr, coefficient, 0.0f, 0.0f);
}

void check_spatial_wta_side(int64_t side) {
  if (side < 1 || (side & (side - 1)) != 0) {
    throw std::invalid_argument("--sparsity wta-spatial needs latent maps whose side is a power "
                                "of two (this network's latent maps are " +
                                std::to_string(side) + " x " + std::to_string(side) + ")");
  }
}

void require_sparsity_fits(const Network& network, const Sparsity& sparsity) {
  if (sparsity.spatial_wta) check_spatial_wta_side(network.latent_size());
}

SpatialWinnerTakeAll::SpatialWinnerTakeAll(Context& context, const std::vector<int64_t>& dims)
    : context_(context) {
  if (dims.size() != 4 || dims[2] != dims[3]) {
    throw std::invalid_argument("the spatial winner-take-all needs square maps [N, C, S, S]");
  }
  check_spatial_wta_side(dims[2]);
  for (int64_t side = dims[2] / 2; side >= 1; side /= 2) {
    pooled_.push_back(context_.alloc({dims[0], dims[1], side, side}));
    if (side > 1) unpooled_.push_back(context_.alloc({dims[0], dims[1], side, side}));
  }
  code_ = context_.alloc(dims);
}

void SpatialWinnerTakeAll::forward(const Tensor& latent) {
  if (pooled_.empty()) {  // 1 x 1 maps: each value is its map's winner
    context_.relu_forward(latent, code_);  // a copy (the latent is post-ReLU)
    return;
  }
  const Tensor* level = &latent;
  for (Tensor& pooled : pooled_) {
    context_.maxpool2x2_forward(*level, pooled);
    level = &pooled;
  }
  // Back down: the maximum (1 x 1) to its place in the 2 x 2 level, then in
  // the 4 x 4 one, ..., then in the latent.
  const Tensor* carried = &pooled_.back();
  for (size_t k = pooled_.size() - 1; k-- > 0;) {
    Tensor& out = unpooled_[k];
    context_.maxpool2x2_backward(pooled_[k], *carried, out);
    carried = &out;
  }
  context_.maxpool2x2_backward(latent, *carried, code_);
}

void SpatialWinnerTakeAll::backward(Tensor& d) { context_.relu_backward(code_, d, d); }

}  // namespace cae::nn
