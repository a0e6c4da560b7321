// The backend under test and the settings of this run, shared by every check.
// main() fills it once before doctest runs the test cases.
#pragma once

#include <cae/backend.h>

#include <cstdint>
#include <memory>
#include <string>

#include "model_shapes.hpp"
#include "plugin/context.hpp"

namespace conformance {

struct Suite {
  const cae_backend_table* table = nullptr;
  std::string library_path;
  std::string library_sha256;  // of the file as it was loaded: what a record certifies
  std::unique_ptr<cae::Context> context;
  cae::BackendOptionValues backend_options;  // --backend-option, checked: every context gets them
  cae::DeviceInfo device;
  int32_t device_index = 0;
  uint64_t seed = 0;
  bool quick = false;
  ModelShapeSettings models;  // --models, --large-models
  std::string json_path;  // --json: where the verdict goes
};

// The one suite of this run.
Suite& suite();

inline cae::Context& ctx() { return *suite().context; }

// A raw context on the suite's device with the suite's backend options
// (create_with_options when the backend has the ABI 1.4 members, else create).
cae_status create_suite_context(cae_context* out);
inline const cae_backend_table& table() { return *suite().table; }

}  // namespace conformance
