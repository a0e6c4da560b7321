#include "architecture.hpp"

namespace cae::nn {

int64_t total_parameter_count() {
  int64_t total = 0;
  for (const auto& layer : kLayers) total += layer.parameter_count();
  return total;
}

double forward_flops_per_image() {
  double flops = 0;
  for (const auto& layer : kLayers) {
    flops += 2.0 * layer.weight_count() * layer.size * layer.size;
  }
  return flops;
}

}  // namespace cae::nn
