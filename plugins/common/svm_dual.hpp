// What every backend's svm_dual_solve shares (ABI 1.8): one checked problem
// as the solvers read it, the check that no two problems write one tensor,
// and the two-variable step itself, compiled for the host (cpu) and the
// device (the CUDA runtime) from this one definition, so the backends take
// the same steps up to the rounding of their kernels.
#pragma once

#include <cae/backend.h>

#include <cstdint>
#include <string>

#include "plugin_support.hpp"

#if defined(__CUDACC__)
#define CAE_SVM_HOST_DEVICE __host__ __device__
#else
#define CAE_SVM_HOST_DEVICE
#endif

namespace cae_plugin {

// One problem after its checks: its tensors' storage (host or device memory,
// the backend's), its sizes and settings, and where its outcome goes (the
// caller's struct, host memory).
struct SvmDualWork {
  const float* aa;
  const float* ab;
  const float* ba;  // nullptr: K(b, a) is ab's transpose (ABI 1.9), made by the backend
  const float* bb;
  float* alpha;
  float* gradient;
  int64_t n_a;
  int64_t n_b;
  double C;
  double eps;
  int64_t max_iterations;
  cae_svm_dual_problem* outcome;
};

// Problem `index` names one tensor as its alpha and gradient, or shares one
// with an earlier problem: refused (INVALID_ARGUMENT).
inline void check_svm_dual_own_tensors(const cae_svm_dual_problem* problems, int32_t index) {
  const cae_svm_dual_problem& p = problems[index];
  const std::string op = "svm_dual_solve: problem " + std::to_string(index);
  CAE_REQUIRE(p.alpha != p.gradient, op + " names one tensor as its alpha and its gradient");
  for (int32_t other = 0; other < index; ++other) {
    const cae_svm_dual_problem& q = problems[other];
    CAE_REQUIRE(q.alpha != p.alpha && q.gradient != p.gradient && q.alpha != p.gradient &&
                    q.gradient != p.alpha,
                op + " shares an alpha or gradient tensor with problem " + std::to_string(other));
  }
}

// libsvm's floor for a non-positive curvature K_ii + K_jj - 2 K_ij.
constexpr double kSvmDualTau = 1e-12;

struct SvmDualStep {
  double s;  // how far a_i moved up (y_i s) and a_j down (y_j s)
  double alpha_i;
  double alpha_j;
};

// The step along a_i += y_i s, a_j -= y_j s (y'a stays 0) for the gain
// b = m - (-y_j G_j) > 0 and curvature a: s = b / a, cut where a_i or a_j
// reaches its bound, which is then set exactly (so the bound tests see it).
// positive_*: y = +1.
CAE_SVM_HOST_DEVICE inline SvmDualStep svm_dual_step(double alpha_i, bool positive_i,
                                                     double alpha_j, bool positive_j, double C,
                                                     double b, double curvature) {
  if (curvature <= 0.0) curvature = kSvmDualTau;
  const double room_i = positive_i ? C - alpha_i : alpha_i;
  const double room_j = positive_j ? alpha_j : C - alpha_j;
  double s = b / curvature;
  bool i_hits = false, j_hits = false;
  if (s >= room_i) {
    s = room_i;
    i_hits = true;
  }
  if (s >= room_j) {
    s = room_j;
    j_hits = true;
    i_hits = s >= room_i;
  }
  return {s, i_hits ? (positive_i ? C : 0.0) : alpha_i + (positive_i ? s : -s),
          j_hits ? (positive_j ? 0.0 : C) : alpha_j - (positive_j ? s : -s)};
}

}  // namespace cae_plugin
