// The backends the nn suite runs on: the cpu backend of this build tree (its
// ABI 1.1 table, and a copy cut down to an ABI 1.0 table), the ABI 1.0 stub
// plugin, and a small deterministic image set.
#pragma once

#include <cae/backend.h>

#include <memory>
#include <vector>

#include "data/image_set.hpp"
#include "plugin/context.hpp"

namespace cae::test {

const cae_backend_table& cpu_table();
// The cpu backend's table as a backend built against ABI 1.0 would present
// it: struct_size CAE_BACKEND_TABLE_SIZE_1_0, minor 0, no group members.
const cae_backend_table& cpu_table_as_1_0();
// tests/plugins/minimal_backend.c built as an ABI 1.0 table (stub-abi-1-0).
const cae_backend_table& stub_1_0_table();

// Contexts on devices 0..count-1 of `table`, one thread each.
std::vector<std::unique_ptr<Context>> make_contexts(const cae_backend_table& table, int count);
std::vector<Context*> pointers(const std::vector<std::unique_ptr<Context>>& contexts);

// `count` procedural 32x32 images (fixed seed).
ImageSet small_image_set(size_t count, uint64_t seed);

}  // namespace cae::test
