// leaky-free: tensor_free does nothing. destroy still frees everything, so
// only a check that allocates and frees inside ONE context sees the leak.
#include "mutant_core.hpp"

namespace mutant {
namespace {

void tensor_free(cae_context, cae_tensor) {}

}  // namespace

void mutate(cae_backend_table& table) { table.tensor_free = tensor_free; }

}  // namespace mutant
