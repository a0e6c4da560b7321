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
    const Outputs third = run();
    for (size_t i = 0; i < first.size(); ++i) {
      const std::string name = what + " " + first[i].first;
      if (!expect_identical(op, "call 2 = call 1: " + name, first[i].second, second[i].second))
        continue;
      expect_identical(op, "call 3 = call 1: " + name, first[i].second, third[i].second);
    }
  });
}

}  // namespace conformance
