// probe-error: probe fills its result as the cpu backend does, then returns
// CAE_STATUS_INTERNAL, breaking the header's contract that probe never fails
// (it reports "unavailable" with available = 0 and CAE_STATUS_OK instead).
// A suite that calls this "skipped" lets a broken backend through CI.
#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status probe(cae_probe_result* out) {
  base().probe(out);
  return CAE_STATUS_INTERNAL;
}

}  // namespace

void mutate(cae_backend_table& table) { table.probe = probe; }

}  // namespace mutant
