// struct-size-lie: the table claims ABI 1.0 but a struct_size that 1.0's
// table never has. MUTANT_TABLE_LARGER: 16 bytes more than 1.0's table;
// otherwise smaller than 1.0's table but above the minimum the host accepts
// (it ends inside the optional members, after timer_start).
#include <cstddef>

#include "mutant_core.hpp"

namespace mutant {

void mutate(cae_backend_table& table) {
  table.abi_minor = 0;
#ifdef MUTANT_TABLE_LARGER
  table.struct_size = sizeof(cae_backend_table) + 16;
#else
  table.struct_size = offsetof(cae_backend_table, timer_start) + sizeof(table.timer_start);
  static_assert(offsetof(cae_backend_table, timer_start) >= CAE_BACKEND_TABLE_MIN_SIZE,
                "the smaller table must still hold every required member");
#endif
}

}  // namespace mutant
