// probe-error: probe fills its result as the cpu backend does, then returns
// CAE_STATUS_INTERNAL, breaking the header's contract that probe never fails
// (it reports "unavailable" with available = 0 and CAE_STATUS_OK instead).
// A suite that calls this "skipped" lets a broken backend through CI.
#include "mutant_core.hpp"

namespace mutant {
namespace {

// last_error(NULL) reports the thread's most recent failed probe or create.
thread_local bool probe_failed_last = false;

cae_status probe(cae_probe_result* out) {
  base().probe(out);
  probe_failed_last = true;
  return CAE_STATUS_INTERNAL;
}

cae_status create(const cae_create_options* options, cae_context* out) {
  const cae_status status = base().create(options, out);
  if (status != CAE_STATUS_OK) probe_failed_last = false;
  return status;
}

const char* last_error(cae_context ctx) {
  if (!ctx && probe_failed_last) return "probe: fails on purpose (the probe-error mutant)";
  return base().last_error(ctx);
}

}  // namespace

void mutate(cae_backend_table& table) {
  table.probe = probe;
  table.create = create;
  table.last_error = last_error;
}

}  // namespace mutant
