// crash: conv2d_backward dies with SIGSEGV when the batch has more than 64
// images, as a kernel indexing past a 64-image workspace would. The suite
// must still give a verdict and name the op that was running.
#include "mutant_core.hpp"

namespace mutant {
namespace {

constexpr int64_t kImagesBeforeCrash = 64;

cae_status conv2d_backward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy,
                           cae_tensor dx, cae_tensor dw, cae_tensor db) {
  if (tracked({x}) && dims_of(x)[0] > kImagesBeforeCrash) {
    // Both volatile: the compiler neither sees the NULL nor drops the store.
    volatile int* volatile nowhere = nullptr;
    *nowhere = 1;
  }
  return base().conv2d_backward(ctx, x, w, dy, dx, dw, db);
}

}  // namespace

void mutate(cae_backend_table& table) { table.conv2d_backward = conv2d_backward; }

}  // namespace mutant
