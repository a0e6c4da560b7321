#include "backend_options.hpp"

#include <cstdio>
#include <set>

#include "cae/option_text.h"
#include "plugin_support.hpp"

namespace cae_plugin {

namespace {

// "%g" of a bound: 3 -> "3", 0.5 -> "0.5".
std::string bound_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// True when `text` is a value the declaration allows, in canonical form
// (api/cae/option_text.h: the host checks a user's value the same way before
// it calls create).
bool allowed(const OptionSpec& spec, const std::string& text) {
  return cae_option_value_allowed(spec.type, spec.min_value, spec.max_value, spec.choices,
                                  text.c_str()) != 0;
}

std::string declared_names(const OptionSpec* specs, size_t count) {
  std::string names;
  for (size_t i = 0; i < count; ++i) names += (i ? ", " : "") + std::string(specs[i].name);
  return names.empty() ? "none" : names;
}

}  // namespace

std::string allowed_values(const OptionSpec& spec) {
  const std::string name = spec.name;
  switch (spec.type) {
    case CAE_OPTION_BOOL:
      return name + ": true or false";
    case CAE_OPTION_INT:
      return name + ": an integer in " + bound_text(spec.min_value) + ".." +
             bound_text(spec.max_value);
    case CAE_OPTION_FLOAT:
      return name + ": a finite number in " + bound_text(spec.min_value) + ".." +
             bound_text(spec.max_value);
    case CAE_OPTION_ENUM:
      return name + ": one of " + (spec.choices ? spec.choices : "");
  }
  return name;
}

const std::string& OptionValues::text(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) fail(CAE_STATUS_INTERNAL, "option '" + name + "' is not declared");
  return it->second;
}

bool OptionValues::flag(const std::string& name) const { return text(name) == "true"; }

long long OptionValues::integer(const std::string& name) const {
  long long value = 0;
  if (!cae_option_parse_integer(text(name).c_str(), &value))
    fail(CAE_STATUS_INTERNAL, name + " is not an integer");
  return value;
}

double OptionValues::number(const std::string& name) const {
  double value = 0;
  if (!cae_option_parse_number(text(name).c_str(), &value))
    fail(CAE_STATUS_INTERNAL, name + " is not a number");
  return value;
}

const std::string& OptionValues::word(const std::string& name) const { return text(name); }

cae_status describe_option(const OptionSpec* specs, size_t count, int32_t index,
                           cae_option_desc* out) noexcept {
  return guard(nullptr, [&] {
    require(index >= 0 && static_cast<size_t>(index) < count,
            "option_describe: index " + std::to_string(index) + " is outside 0.." +
                std::to_string(static_cast<long long>(count) - 1));
    const OptionSpec& spec = specs[index];
    cae_option_desc desc{};
    desc.struct_size = sizeof desc;
    desc.type = spec.type;
    desc.name = spec.name;
    desc.default_value = spec.default_value;
    desc.choices = spec.type == CAE_OPTION_ENUM ? spec.choices : nullptr;
    desc.min_value = spec.min_value;
    desc.max_value = spec.max_value;
    desc.help = spec.help;
    write_out_struct(out, desc);
  });
}

OptionValues resolve_options(const OptionSpec* specs, size_t count, const cae_option_value* values,
                             int32_t value_count) {
  require(value_count >= 0, "create_with_options: count " + std::to_string(value_count) + " < 0");
  require(value_count == 0 || values != nullptr, "create_with_options: values is NULL");
  OptionValues result;
  for (size_t i = 0; i < count; ++i) result.set(specs[i].name, specs[i].default_value);
  std::set<std::string> seen;
  for (int32_t v = 0; v < value_count; ++v) {
    require(values[v].name != nullptr && values[v].value != nullptr,
            "create_with_options: option " + std::to_string(v) + " has a NULL name or value");
    const std::string name = values[v].name, text = values[v].value;
    const OptionSpec* spec = nullptr;
    for (size_t i = 0; i < count && !spec; ++i) {
      if (name == specs[i].name) spec = &specs[i];
    }
    if (!spec) {
      fail(CAE_STATUS_UNSUPPORTED, "create: no option '" + name + "' (this backend's options: " +
                                       declared_names(specs, count) + ")");
    }
    require(seen.insert(name).second, "create: option " + name + " given twice");
    require(allowed(*spec, text), "create: option " + name + "=" + text + " is not allowed (" +
                                      allowed_values(*spec) + ")");
    result.set(name, text);
  }
  return result;
}

}  // namespace cae_plugin
