// The SVM dual solver's entry point (ABI 1.8): every problem checked (shapes,
// settings, then the start's contents) before any is solved, so a refused
// call writes nothing; then all of them in one launch (svm_dual_solve.cu).
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "op_shapes.hpp"
#include "runtime_entry.hpp"
#include "runtime_ops.hpp"

namespace cae_cuda {
namespace entry {

using cae_plugin::guard;

cae_status svm_dual_solve(cae_context ctx, cae_svm_dual_problem* problems, int32_t count) {
  return guard(ctx, [&] {
    const char* op = "svm_dual_solve";
    Context& c = enter(ctx, op);
    CAE_REQUIRE(count >= 1, std::string(op) + ": count must be >= 1, got " + std::to_string(count));
    CAE_REQUIRE(problems != nullptr, std::string(op) + ": problems is NULL");
    std::vector<SvmDualTask> tasks(static_cast<size_t>(count));
    std::vector<float> alpha, gradient;
    for (int32_t k = 0; k < count; ++k) {
      cae_svm_dual_problem& p = problems[k];
      cae_plugin::check_svm_dual_header(k, &p);
      const cae_tensor_s& aa = tensor_arg(c, p.kernel_aa, op, "kernel_aa");
      const cae_tensor_s& ab = tensor_arg(c, p.kernel_ab, op, "kernel_ab");
      const cae_tensor_s& ba = tensor_arg(c, p.kernel_ba, op, "kernel_ba");
      const cae_tensor_s& bb = tensor_arg(c, p.kernel_bb, op, "kernel_bb");
      cae_tensor_s& ta = tensor_arg(c, p.alpha, op, "alpha");
      cae_tensor_s& tg = tensor_arg(c, p.gradient, op, "gradient");
      const cae_plugin::SvmDualDims d = cae_plugin::check_svm_dual_problem(
          k, p, {aa.shape, ab.shape, ba.shape, bb.shape, ta.shape, tg.shape});
      for (int32_t other = 0; other < k; ++other) {
        const cae_svm_dual_problem& q = problems[other];
        CAE_REQUIRE(q.alpha != p.alpha && q.gradient != p.gradient && q.alpha != p.gradient &&
                        q.gradient != p.alpha,
                    std::string(op) + ": problems " + std::to_string(other) + " and " +
                        std::to_string(k) + " share an alpha or gradient tensor");
      }
      CAE_REQUIRE(p.alpha != p.gradient,
                  std::string(op) + ": problem " + std::to_string(k) +
                      " names one tensor as its alpha and its gradient");
      alpha.resize(static_cast<size_t>(d.rows()));
      gradient.resize(static_cast<size_t>(d.rows()));
      CAE_CUDA_CHECK(cudaMemcpyAsync(alpha.data(), ta.data, alpha.size() * sizeof(float),
                                     cudaMemcpyDeviceToHost, c.stream));
      CAE_CUDA_CHECK(cudaMemcpyAsync(gradient.data(), tg.data, gradient.size() * sizeof(float),
                                     cudaMemcpyDeviceToHost, c.stream));
      CAE_CUDA_CHECK(cudaStreamSynchronize(c.stream));
      cae_plugin::check_svm_dual_start(k, d, p.C, alpha.data(), gradient.data());
      tasks[static_cast<size_t>(k)] = {aa.data, ab.data, ba.data, bb.data, ta.data, tg.data,
                                       d.n_a,   d.n_b,   p.C,     p.eps,   p.max_iterations, &p};
    }
    cae_cuda::svm_dual_solve(c, tasks.data(), count);
    for (int32_t k = 0; k < count; ++k) {
      c.wrote(tensor_arg(c, problems[k].alpha, op, "alpha"));
      c.wrote(tensor_arg(c, problems[k].gradient, op, "gradient"));
    }
  });
}

}  // namespace entry
}  // namespace cae_cuda
