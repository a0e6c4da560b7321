#include "declared_options.hpp"

#include <cstdio>
#include <set>
#include <stdexcept>

#include "cae/option_text.h"

namespace cae {

namespace {

std::string bound_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// The canonical texts of ABI 1.4, read as every backend reads them
// (api/cae/option_text.h).
bool value_allowed(const OptionDeclaration& option, const std::string& text) {
  return cae_option_value_allowed(option.type, option.min_value, option.max_value,
                                  option.choices.c_str(), text.c_str()) != 0;
}

std::string text_or_empty(const char* text) { return text ? text : ""; }

std::string names_of(const std::vector<OptionDeclaration>& options) {
  std::string names;
  for (const OptionDeclaration& o : options) names += (names.empty() ? "" : ", ") + o.name;
  return names;
}

}  // namespace

bool has_option_members(const cae_backend_table& table) {
  return CAE_TABLE_HAS(&table, option_count) && CAE_TABLE_HAS(&table, option_describe) &&
         CAE_TABLE_HAS(&table, create_with_options);
}

std::vector<OptionDeclaration> declared_options(const cae_backend_table& table) {
  std::vector<OptionDeclaration> options;
  if (!has_option_members(table)) return options;
  const std::string backend = text_or_empty(table.name);
  const int32_t count = table.option_count();
  if (count < 0) {
    throw std::runtime_error(backend + ": option_count returned " + std::to_string(count));
  }
  for (int32_t i = 0; i < count; ++i) {
    cae_option_desc desc{};
    desc.struct_size = sizeof desc;
    const cae_status status = table.option_describe(i, &desc);
    if (status != CAE_STATUS_OK) {
      throw std::runtime_error(backend + ": option_describe(" + std::to_string(i) +
                               ") failed: " + text_or_empty(table.last_error(nullptr)));
    }
    OptionDeclaration option;
    option.name = text_or_empty(desc.name);
    option.type = static_cast<cae_option_type>(desc.type);
    option.default_value = text_or_empty(desc.default_value);
    option.choices = text_or_empty(desc.choices);
    option.min_value = desc.min_value;
    option.max_value = desc.max_value;
    option.help = text_or_empty(desc.help);
    if (option.name.empty() || desc.type < CAE_OPTION_BOOL || desc.type > CAE_OPTION_ENUM ||
        !value_allowed(option, option.default_value)) {
      throw std::runtime_error(backend + ": option " + std::to_string(i) + " ('" + option.name +
                               "') has no name, an unknown type or a default ('" +
                               option.default_value + "') outside its own allowed values");
    }
    options.push_back(std::move(option));
  }
  return options;
}

std::string allowed_values(const OptionDeclaration& option) {
  switch (option.type) {
    case CAE_OPTION_BOOL:
      return "true or false";
    case CAE_OPTION_INT:
      return "an integer in " + bound_text(option.min_value) + ".." + bound_text(option.max_value);
    case CAE_OPTION_FLOAT:
      return "a finite number in " + bound_text(option.min_value) + ".." +
             bound_text(option.max_value);
    case CAE_OPTION_ENUM:
      return "one of " + option.choices;
  }
  return "?";
}

const char* option_type_name(cae_option_type type) {
  switch (type) {
    case CAE_OPTION_BOOL:
      return "bool";
    case CAE_OPTION_INT:
      return "integer";
    case CAE_OPTION_FLOAT:
      return "float";
    case CAE_OPTION_ENUM:
      return "enum";
  }
  return "?";
}

BackendOptionValues check_backend_options(const cae_backend_table& table,
                                          const std::vector<std::string>& assignments) {
  BackendOptionValues chosen;
  if (assignments.empty()) return chosen;
  const std::string backend = text_or_empty(table.name);
  if (!has_option_members(table)) {
    throw std::invalid_argument(
        "--backend-option: backend " + backend + " (ABI " + std::to_string(table.abi_major) + "." +
        std::to_string(table.abi_minor) + ") declares no options" +
        (table.abi_minor < 4 ? " (options need ABI 1.4)" : ""));
  }
  const std::vector<OptionDeclaration> declared = declared_options(table);
  std::set<std::string> seen;
  for (const std::string& assignment : assignments) {
    const size_t equals = assignment.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw std::invalid_argument("--backend-option '" + assignment + "' is not NAME=VALUE");
    }
    const std::string name = assignment.substr(0, equals), value = assignment.substr(equals + 1);
    const OptionDeclaration* option = nullptr;
    for (const OptionDeclaration& o : declared) {
      if (o.name == name) option = &o;
    }
    if (!option) {
      throw std::invalid_argument(
          "--backend-option " + name + ": backend " + backend + " has no such option (" +
          (declared.empty() ? std::string("it declares none") : "its options: " + names_of(declared)) +
          "; see `cae info --backend " + backend + "`)");
    }
    if (!seen.insert(name).second) {
      throw std::invalid_argument("--backend-option " + name + " is given twice");
    }
    if (!value_allowed(*option, value)) {
      throw std::invalid_argument("--backend-option " + name + "=" + value + ": " + backend +
                                  "'s option " + name + " takes " + allowed_values(*option));
    }
    chosen.emplace_back(name, value);
  }
  return chosen;
}

BackendOptionValues options_in_effect(const cae_backend_table& table,
                                      const BackendOptionValues& chosen) {
  BackendOptionValues effect;
  for (const OptionDeclaration& option : declared_options(table)) {
    std::string value = option.default_value;
    for (const auto& [name, text] : chosen) {
      if (name == option.name) value = text;
    }
    effect.emplace_back(option.name, value);
  }
  return effect;
}

std::string options_text(const BackendOptionValues& values) {
  std::string text;
  for (const auto& [name, value] : values) text += (text.empty() ? "" : " ") + name + "=" + value;
  return text;
}

}  // namespace cae
