// Mean squared error: the loss value and, optionally, its gradient.
//
// The sum of squares is accumulated in double over fixed chunks of elements,
// and the chunk sums are added in chunk order: accurate for large E and
// independent of the thread count.
#include <algorithm>
#include <cstdint>

#include "cpu_context.hpp"
#include "cpu_ops.hpp"
#include "cpu_parallel.hpp"
#include "op_shapes.hpp"

namespace cae_cpu {
namespace {

constexpr int64_t kLossChunk = 8192;

}  // namespace

cae_status mse_loss(cae_context ctx, cae_tensor pred, cae_tensor target, cae_tensor loss,
                    cae_tensor grad) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "mse_loss";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& P = tensor_arg(c, pred, op, "pred");
    const cae_tensor_s& T = tensor_arg(c, target, op, "target");
    const cae_tensor_s& L = tensor_arg(c, loss, op, "loss");
    const cae_tensor_s* G = optional_tensor_arg(c, grad, op, "grad");
    cae_plugin::check_mse(P.shape, T.shape, L.shape, G ? &G->shape : nullptr);

    const int64_t count = P.count();
    const int64_t chunks = (count + kLossChunk - 1) / kLossChunk;
    double* chunk_sums = c.scratch.doubles.reserve(static_cast<size_t>(chunks), op, "partial sums");
    const float* p = P.data();
    const float* t = T.data();
    float* g = G ? G->data() : nullptr;
    const float grad_scale = static_cast<float>(2.0 / static_cast<double>(count));
    parallel_for(c.threads, chunks, [&](int64_t chunk) {
      const int64_t begin = chunk * kLossChunk;
      const int64_t end = std::min(count, begin + kLossChunk);
      double sum = 0.0;
      for (int64_t i = begin; i < end; ++i) {
        const double diff = static_cast<double>(p[i]) - static_cast<double>(t[i]);
        sum += diff * diff;
      }
      chunk_sums[chunk] = sum;
      if (g) {
        for (int64_t i = begin; i < end; ++i) g[i] = (p[i] - t[i]) * grad_scale;
      }
    });
    double total = 0.0;
    for (int64_t chunk = 0; chunk < chunks; ++chunk) total += chunk_sums[chunk];
    L.data()[0] = static_cast<float>(total / static_cast<double>(count));
  });
}

}  // namespace cae_cpu
