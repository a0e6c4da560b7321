// A backend's declared options (ABI 1.4): the declarations as a constant
// list, option_describe from it, and the check of the values a host passes to
// create_with_options, which yields every option's value in effect.
//
// A backend declares its options once:
//   constexpr cae_plugin::OptionSpec kOptions[] = {
//       {CAE_OPTION_INT, "bf16-terms", "1", nullptr, 1, 3, "BF16 terms per operand"}};
// and reads them from the OptionValues its context was created with. Values
// outside the declaration are refused with the option's name and its allowed
// values: never clamped, never ignored.
#pragma once

#include <cae/backend.h>

#include <cstddef>
#include <map>
#include <string>

namespace cae_plugin {

struct OptionSpec {
  cae_option_type type;
  const char* name;
  const char* default_value;  // canonical text
  const char* choices;        // ENUM: "a|b|c"; nullptr otherwise
  double min_value;           // INT, FLOAT: inclusive bounds
  double max_value;
  const char* help;
};

// The value of every declared option: the chosen one, else the default.
class OptionValues {
 public:
  bool flag(const std::string& name) const;
  long long integer(const std::string& name) const;
  double number(const std::string& name) const;
  const std::string& word(const std::string& name) const;
  const std::string& text(const std::string& name) const;

  // Only resolve_options fills it.
  void set(const std::string& name, const std::string& value) { values_[name] = value; }

 private:
  std::map<std::string, std::string> values_;
};

// "bf16-terms: an integer in 1..3", "precision: one of fast|precise".
std::string allowed_values(const OptionSpec& spec);

// option_describe for a backend whose declarations are specs[0..count).
cae_status describe_option(const OptionSpec* specs, size_t count, int32_t index,
                           cae_option_desc* out) noexcept;

// Checks values[0..value_count) against the declarations and returns every
// option's value in effect. Throws Error: UNSUPPORTED for an undeclared name,
// INVALID_ARGUMENT for a value outside its type or range or a name given twice.
OptionValues resolve_options(const OptionSpec* specs, size_t count, const cae_option_value* values,
                             int32_t value_count);

template <size_t N>
OptionValues resolve_options(const OptionSpec (&specs)[N], const cae_option_value* values,
                             int32_t value_count) {
  return resolve_options(specs, N, values, value_count);
}

}  // namespace cae_plugin

// In a backend's entry namespace: option_count and option_describe for its
// constant array of OptionSpec.
#define CAE_DEFINE_BACKEND_OPTION_MEMBERS(specs)                                       \
  int32_t option_count() { return static_cast<int32_t>(sizeof(specs) / sizeof(specs[0])); } \
  cae_status option_describe(int32_t index, cae_option_desc* out) {                    \
    return ::cae_plugin::describe_option(specs, sizeof(specs) / sizeof(specs[0]), index, out); \
  }                                                                                    \
  static_assert(true, "CAE_DEFINE_BACKEND_OPTION_MEMBERS needs a ';'")
