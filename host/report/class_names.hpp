// Display names of the classes a report talks about.
#pragma once

#include <string>
#include <vector>

namespace cae {

// The names to show for `num_classes` classes: `names` itself, or "0", "1",
// ... when it is empty (a run without a label file still gets a report).
// Throws std::invalid_argument if `names` is non-empty but of another size.
std::vector<std::string> class_names_for(const std::vector<std::string>& names, int num_classes);

}  // namespace cae
