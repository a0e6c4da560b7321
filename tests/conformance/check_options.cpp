// The ABI 1.4 declared options, when the backend provides them: all three
// members or none, every declaration well formed (a name, a known type, a
// default among its own allowed values), option_describe refusing an index
// out of range, and create_with_options refusing an undeclared name, a value
// outside each option's declaration and a name given twice, with a message
// that names the option and no context left behind.
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "checks.hpp"
#include "plugin/declared_options.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

constexpr const char* kOp = "options";

// A value the declaration does not allow, of the right shape where one exists.
std::string refused_value(const cae::OptionDeclaration& option) {
  switch (option.type) {
    case CAE_OPTION_BOOL:
      return "maybe";
    case CAE_OPTION_INT:
      return std::isfinite(option.max_value) && option.max_value < 9e15
                 ? std::to_string(static_cast<long long>(option.max_value) + 1)
                 : "1.5";
    case CAE_OPTION_FLOAT:
      return "nan";
    case CAE_OPTION_ENUM:
      return "no-such-choice";
  }
  return "?";
}

// create_with_options must answer `expected`, leave *out NULL and name `name`.
void expect_refusal(const std::vector<cae_option_value>& values, cae_status expected,
                    const std::string& name, const std::string& what) {
  const cae_backend_table& t = table();
  cae_create_options options{};
  options.struct_size = sizeof options;
  options.device_index = suite().device_index;
  cae_context ctx = nullptr;
  const cae_status status = t.create_with_options(&options, values.data(),
                                                  static_cast<int32_t>(values.size()), &ctx);
  const std::string message = t.last_error(nullptr);
  if (ctx) t.destroy(ctx);
  const bool ok = status == expected && ctx == nullptr &&
                  message.find(name) != std::string::npos;
  if (!record(ok, kOp, what, ok ? "refused, naming " + name : "not refused as required")) {
    explain("status " + std::to_string(status) + " (expected " + std::to_string(expected) +
            "), context " + (ctx ? "created" : "none") + ", message: " + message);
  }
}

}  // namespace

void check_options() {
  const cae_backend_table& t = table();
  const int members = CAE_TABLE_HAS(&t, option_count) + CAE_TABLE_HAS(&t, option_describe) +
                      CAE_TABLE_HAS(&t, create_with_options);
  if (members == 0) {
    note(kOp, "option members", "not provided (optional, ABI 1.4)");
    return;
  }
  if (!record(members == 3, kOp, "members",
              members == 3 ? "all three" : "incomplete: provide all three or none")) {
    return;
  }
  std::vector<cae::OptionDeclaration> declared;
  try {
    declared = cae::declared_options(t);
  } catch (const std::exception& e) {
    record(false, kOp, "declarations", e.what());
    return;
  }
  std::set<std::string> names;
  for (const cae::OptionDeclaration& o : declared) names.insert(o.name);
  record(names.size() == declared.size(), kOp, "declarations",
         std::to_string(declared.size()) + " option(s), names " +
             (names.size() == declared.size() ? "unique" : "REPEATED"));
  cae_option_desc desc{};
  desc.struct_size = sizeof desc;
  record(t.option_describe(static_cast<int32_t>(declared.size()), &desc) ==
             CAE_STATUS_INVALID_ARGUMENT,
         kOp, "option_describe(option_count())", "INVALID_ARGUMENT required");
  expect_refusal({{"no-such-option", "1"}}, CAE_STATUS_UNSUPPORTED, "no-such-option",
                 "undeclared name");
  for (const cae::OptionDeclaration& o : declared) {
    const std::string bad = refused_value(o);
    expect_refusal({{o.name.c_str(), bad.c_str()}}, CAE_STATUS_INVALID_ARGUMENT, o.name,
                   o.name + "=" + bad);
    expect_refusal({{o.name.c_str(), o.default_value.c_str()},
                    {o.name.c_str(), o.default_value.c_str()}},
                   CAE_STATUS_INVALID_ARGUMENT, o.name, o.name + " given twice");
    // Every choice joined by the separator is text, not one of the choices.
    if (o.type == CAE_OPTION_ENUM && o.choices.find('|') != std::string::npos) {
      expect_refusal({{o.name.c_str(), o.choices.c_str()}}, CAE_STATUS_INVALID_ARGUMENT, o.name,
                     o.name + "=" + o.choices);
    }
  }
}

}  // namespace conformance
