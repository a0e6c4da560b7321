// Handle checks at the top of every entry point of a backend whose context
// keeps its live tensors in a set `tensors`: NULL handles and tensors of
// another context are INVALID_ARGUMENT with a message naming the op and the
// argument. The messages are built only on failure (these run on every op).
//
// Why here: v2, v3 and winograd each wrote these three functions word for
// word; a backend now names its context type once (new backends use this; the
// older ones can switch without any change of behaviour).
#pragma once

#include <cae/backend.h>

#include <string>

#include "plugin_support.hpp"

namespace cae_plugin {

template <class Context>
Context& context_argument(Context* ctx, const char* op) {
  if (ctx == nullptr) fail(CAE_STATUS_INVALID_ARGUMENT, std::string(op) + ": context is NULL");
  return *ctx;
}

// NULL is allowed (returns nullptr).
template <class Context>
cae_tensor optional_tensor_argument(const Context& ctx, cae_tensor t, const char* op,
                                    const char* name) {
  if (t != nullptr && ctx.tensors.count(t) == 0) {
    fail(CAE_STATUS_INVALID_ARGUMENT,
         std::string(op) + ": tensor " + name + " does not belong to this context");
  }
  return t;
}

template <class Context>
cae_tensor tensor_argument(const Context& ctx, cae_tensor t, const char* op, const char* name) {
  if (t == nullptr)
    fail(CAE_STATUS_INVALID_ARGUMENT, std::string(op) + ": tensor " + name + " is NULL");
  return optional_tensor_argument(ctx, t, op, name);
}

}  // namespace cae_plugin
