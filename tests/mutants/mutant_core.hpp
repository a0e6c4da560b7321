// The shared core of every mutant backend: a deliberately wrong variant of
// the cpu backend, built to prove that cae-conformance FAILS it.
//
// A mutant loads the real cpu backend (dlopen, path compiled in), copies its
// table, renames it "mutant-<id>" and lets its own source file replace a few
// members (mutate()). The replacements call the cpu backend's own members and
// then corrupt the result through tensor_download / tensor_upload: handles
// pass through unchanged, the mutant's context IS the cpu context.
//
// The ABI has no "shape of a tensor" query, so the core wraps tensor_alloc,
// tensor_free and destroy to remember every live tensor's dims.
#pragma once

#include <cae/backend.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <vector>

namespace mutant {

using Dims = std::vector<int64_t>;

// The real cpu backend's table (loaded on first use).
const cae_backend_table& base();

// Implemented by each mutant's source file: replaces members of `table`,
// which starts as a copy of base() with the core's tracking wrappers.
void mutate(cae_backend_table& table);

// True when every tensor is a live one allocated through the mutant's table.
// Wrappers that read an argument BEFORE the base call check this first and
// otherwise just forward, so that bad arguments get the base's own error.
bool tracked(std::initializer_list<cae_tensor> tensors);

// Dims of a live tensor allocated through the mutant's table.
Dims dims_of(cae_tensor t);
size_t count_of(const Dims& dims);

// Throws when a base call fails; run() turns that back into its status (the
// base context's last_error already holds the message).
void check(cae_status status);

std::vector<float> download(cae_context ctx, cae_tensor t);
void upload(cae_context ctx, cae_tensor t, const std::vector<float>& values);

// A tensor of the base backend that lives for one wrapper call, for inputs
// the mutant rewrites (slices, rounded copies). Freed on scope exit.
class Scratch {
 public:
  Scratch(cae_context ctx, const Dims& dims, const std::vector<float>& values);
  Scratch(cae_context ctx, const Dims& dims);  // uninitialised
  ~Scratch();
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  cae_tensor get() const { return tensor_; }
  std::vector<float> download() const;

 private:
  cae_context ctx_;
  Dims dims_;
  cae_tensor tensor_ = nullptr;
};

// Runs a wrapper's body: CAE_STATUS_OK, the status of a failed base call, or
// CAE_STATUS_INTERNAL for anything else that escapes.
cae_status run(const std::function<void()>& body);

}  // namespace mutant
