// A backend's declared options (ABI 1.4) as the host sees them: the
// declarations read through option_describe, the check of the values a user
// chose (before any context exists, so a bad choice costs nothing), and the
// full list of options in effect that checkpoints and reports record.
#pragma once

#include <cae/backend.h>

#include <string>
#include <utility>
#include <vector>

namespace cae {

struct OptionDeclaration {
  std::string name;
  cae_option_type type = CAE_OPTION_BOOL;
  std::string default_value;
  std::string choices;  // ENUM: "a|b|c"
  double min_value = 0, max_value = 0;
  std::string help;
};

// name=value pairs in the order given; the value in its canonical text.
using BackendOptionValues = std::vector<std::pair<std::string, std::string>>;

// Whether the table carries the three ABI 1.4 option members.
bool has_option_members(const cae_backend_table& table);

// Every option the backend declares (none without the members). Throws
// std::runtime_error when option_describe fails or returns nonsense.
std::vector<OptionDeclaration> declared_options(const cae_backend_table& table);

// "an integer in 1..3", "one of fast|precise", "true or false".
std::string allowed_values(const OptionDeclaration& option);

// "integer", "float", "bool", "enum".
const char* option_type_name(cae_option_type type);

// Checks the user's NAME=VALUE texts against the backend's declarations and
// returns them as pairs. Throws std::invalid_argument with one line naming
// the option and its allowed values: an undeclared name, a value outside its
// type or range, a name given twice, or any option for a backend without the
// ABI 1.4 members. Never clamps.
BackendOptionValues check_backend_options(const cae_backend_table& table,
                                          const std::vector<std::string>& assignments);

// Every declared option with its chosen value, else its default, in
// declaration order: what a run computed with.
BackendOptionValues options_in_effect(const cae_backend_table& table,
                                      const BackendOptionValues& chosen);

// "bf16-terms=3 fp32-conv=true" ("" when empty).
std::string options_text(const BackendOptionValues& values);

}  // namespace cae
