#include "determinism.hpp"

#include "compare.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace conformance {

void expect_deterministic(const std::string& op, const std::string& what,
                          const std::function<Outputs()>& run) {
  if (!suite().device.deterministic) {
    note(op, "determinism", "not required (device_info: deterministic = 0)");
    return;
  }
  guarded(op, "determinism " + what, [&] {
    const Outputs first = run();
    const Outputs second = run();
    for (size_t i = 0; i < first.size(); ++i) {
      expect_identical(op, "twice " + what + " " + first[i].first, first[i].second,
                       second[i].second);
    }
  });
}

}  // namespace conformance
