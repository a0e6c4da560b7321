#include "nn/latent_sparsity.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace cae::nn {

float parse_sparsity(const std::string& text) {
  if (text == "none") return 0.0f;
  const std::string prefix = "l1:";
  if (text.rfind(prefix, 0) != 0) {
    throw std::invalid_argument("--sparsity '" + text + "' is not none or l1:LAMBDA");
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
  return float(lambda);
}

std::string sparsity_name(float lambda) {
  if (lambda == 0.0f) return "none";
  // The shortest text that reads back as the same float ("l1:0.1").
  char text[40];
  for (int digits = 6; digits <= 9; ++digits) {
    std::snprintf(text, sizeof text, "l1:%.*g", digits, double(lambda));
    if (std::strtof(text + 3, nullptr) == lambda) break;
  }
  return text;
}

void add_latent_l1_gradient(Context& context, const Tensor& latent, Tensor& d_latent,
                            const Tensor& minus_ones, Tensor& mask, float coefficient) {
  context.relu_backward(latent, minus_ones, mask);
  context.sgd_step(d_latent, mask, nullptr, coefficient, 0.0f, 0.0f);
}

}  // namespace cae::nn
