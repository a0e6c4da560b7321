#include "ignored_options.hpp"

namespace cae::cli {

bool option_given(const po::variables_map& vm, const std::string& name) {
  return vm.count(name) > 0 && !vm[name].defaulted();
}

void refuse_given_options(const po::variables_map& vm, std::initializer_list<const char*> names,
                          const std::string& reason) {
  for (const char* name : names) {
    if (option_given(vm, name)) throw UsageError("--" + std::string(name) + " " + reason);
  }
}

}  // namespace cae::cli
