#include "suite.hpp"

#include <vector>

namespace conformance {

Suite& suite() {
  static Suite the_suite;
  return the_suite;
}

namespace {
uint64_t g_cases_run = 0;  // test cases in_shard() let run
}  // namespace

bool in_shard() {
  static uint64_t next_case = 0;
  const Suite& s = suite();
  const bool mine = next_case++ % s.shards == s.shard;
  g_cases_run += mine;
  return mine;
}

uint64_t cases_run() { return g_cases_run; }

cae_status create_suite_context(cae_context* out) {
  const cae_backend_table& t = table();
  cae_create_options options{};
  options.struct_size = sizeof options;
  options.device_index = suite().device_index;
  if (!cae::has_option_members(t)) return t.create(&options, out);
  std::vector<cae_option_value> values;
  for (const auto& [name, value] : suite().backend_options) {
    values.push_back({name.c_str(), value.c_str()});
  }
  return t.create_with_options(&options, values.data(), static_cast<int32_t>(values.size()), out);
}

}  // namespace conformance
