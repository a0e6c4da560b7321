// Options that a command would have to ignore are refused, never dropped: an
// option either takes effect or the command says at once (exit 2) why it
// cannot. One function, so every command words it the same way.
#pragma once

#include <initializer_list>
#include <string>

#include "command.hpp"

namespace cae::cli {

// True when the user wrote the option on the command line (a declared default
// does not count).
bool option_given(const po::variables_map& vm, const std::string& name);

// UsageError "--NAME <reason>" for the first of `names` the user gave.
void refuse_given_options(const po::variables_map& vm, std::initializer_list<const char*> names,
                          const std::string& reason);

}  // namespace cae::cli
