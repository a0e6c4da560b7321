// Reference SVM kernel matrix (linear and RBF).
#include <cmath>

#include "reference_ops.hpp"
#include "size_check.hpp"

namespace cae_ref {

Vec kernel_matrix(const Vec& x, int64_t n, const Vec& y, int64_t m, int64_t d, KernelKind kind,
                  double gamma) {
  require_size("kernel_matrix", "x", x, n * d);
  require_size("kernel_matrix", "y", y, m * d);
  require_that(kind == KernelKind::linear || gamma > 0.0, "kernel_matrix", "RBF gamma must be > 0");
  Vec k(n * m);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < m; ++j) {
      double acc = 0.0;
      for (int64_t e = 0; e < d; ++e) {
        const double xe = x[i * d + e], ye = y[j * d + e];
        acc += kind == KernelKind::linear ? xe * ye : (xe - ye) * (xe - ye);
      }
      k[i * m + j] = kind == KernelKind::linear ? acc : std::exp(-gamma * acc);
    }
  }
  return k;
}

}  // namespace cae_ref
