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
  uint32_t shard = 0, shards = 1;  // --shard K/J
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

// Called once at the start of every test case, in the suite's order: whether
// this process runs it (--shard K/J: the cases K, K + J, ...). doctest runs
// the cases in the same order in every process of a run, so the processes
// of --jobs J together run each case exactly once.
bool in_shard();
// The test cases in_shard() let run so far: none at all is a share that
// --filter left empty (a pass when the run is split, a failure otherwise).
uint64_t cases_run();

}  // namespace conformance
