// The SVM dual solver's entry point (ABI 1.8; 1.9's NULL kernel_ba): every problem checked (shapes,
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
    std::vector<cae_plugin::SvmDualWork> work(static_cast<size_t>(count));
    std::vector<cae_plugin::SvmDualDims> dims(work.size());
    std::vector<cae_tensor_s*> written;  // each problem's alpha and gradient
    for (int32_t k = 0; k < count; ++k) {
      cae_svm_dual_problem& p = problems[k];
      cae_plugin::check_svm_dual_header(k, &p);
      const cae_tensor_s& aa = tensor_arg(c, p.kernel_aa, op, "kernel_aa");
      const cae_tensor_s& ab = tensor_arg(c, p.kernel_ab, op, "kernel_ab");
      // NULL (ABI 1.9): K(b, a) is kernel_ab's transpose, made in svm_dual_solve.cu.
      const cae_tensor_s* ba =
          p.kernel_ba ? &tensor_arg(c, p.kernel_ba, op, "kernel_ba") : nullptr;
      const cae_tensor_s& bb = tensor_arg(c, p.kernel_bb, op, "kernel_bb");
      cae_tensor_s& ta = tensor_arg(c, p.alpha, op, "alpha");
      cae_tensor_s& tg = tensor_arg(c, p.gradient, op, "gradient");
      const cae_plugin::SvmDualDims d = cae_plugin::check_svm_dual_problem(
          k, p, {aa.shape, ab.shape, ba ? &ba->shape : nullptr, bb.shape, ta.shape, tg.shape});
      cae_plugin::check_svm_dual_own_tensors(problems, k);
      dims[static_cast<size_t>(k)] = d;
      work[static_cast<size_t>(k)] = {aa.data, ab.data, ba ? ba->data : nullptr, bb.data,
                                      ta.data, tg.data, d.n_a, d.n_b, p.C, p.eps,
                                      p.max_iterations, &p};
      written.push_back(&ta);
      written.push_back(&tg);
    }
    // Every start comes down in one wait, then is checked on the host.
    std::vector<std::vector<float>> starts(2 * work.size());
    for (size_t k = 0; k < work.size(); ++k) {
      for (size_t side = 0; side < 2; ++side) {
        std::vector<float>& start = starts[2 * k + side];
        start.resize(static_cast<size_t>(dims[k].rows()));
        CAE_CUDA_CHECK(cudaMemcpyAsync(start.data(), side == 0 ? work[k].alpha : work[k].gradient,
                                       start.size() * sizeof(float), cudaMemcpyDeviceToHost,
                                       c.stream));
      }
    }
    CAE_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    for (size_t k = 0; k < work.size(); ++k) {
      cae_plugin::check_svm_dual_start(static_cast<int32_t>(k), dims[k], work[k].C,
                                       starts[2 * k].data(), starts[2 * k + 1].data());
    }
    cae_cuda::svm_dual_solve(c, work.data(), count);
    for (cae_tensor_s* t : written) c.wrote(*t);
  });
}

}  // namespace entry
}  // namespace cae_cuda
