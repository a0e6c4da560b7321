// Handle checks at the top of every entry point: a NULL context, a NULL
// tensor and a tensor that is not live in this context (freed, or of another
// context) are INVALID_ARGUMENT with a message naming the op and the argument.
// The messages are built only on failure (these run on every op).
//
// Why here: every backend needs exactly these checks, and one wording of their
// messages. A backend whose context keeps its live tensors in a public member
// `tensors` uses the context forms; one that keeps them private passes its
// set (any container with count(handle)) to the live-set forms.
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
template <class LiveTensors>
cae_tensor optional_live_tensor(const LiveTensors& live, cae_tensor t, const char* op,
                                const char* name) {
  if (t != nullptr && live.count(t) == 0) {
    fail(CAE_STATUS_INVALID_ARGUMENT,
         std::string(op) + ": tensor " + name + " does not belong to this context");
  }
  return t;
}

template <class LiveTensors>
cae_tensor live_tensor(const LiveTensors& live, cae_tensor t, const char* op, const char* name) {
  if (t == nullptr)
    fail(CAE_STATUS_INVALID_ARGUMENT, std::string(op) + ": tensor " + name + " is NULL");
  return optional_live_tensor(live, t, op, name);
}

// NULL is allowed (returns nullptr).
template <class Context>
cae_tensor optional_tensor_argument(const Context& ctx, cae_tensor t, const char* op,
                                    const char* name) {
  return optional_live_tensor(ctx.tensors, t, op, name);
}

template <class Context>
cae_tensor tensor_argument(const Context& ctx, cae_tensor t, const char* op, const char* name) {
  return live_tensor(ctx.tensors, t, op, name);
}

}  // namespace cae_plugin
