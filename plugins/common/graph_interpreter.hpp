// A graph runner any backend can offer in one line: it checks the
// description once at graph_compile (graph_description.hpp), allocates the
// internal tensors with the backend's own tensor_alloc, and on graph_run
// calls the backend's own op members node by node. It gives exactly the
// results of the op sequence (same members, same order, same tensors), so a
// backend gains the graph members with no new numerics to certify, and a
// backend with a compiler of its own can start from it and replace nodes.
//
// Wiring, inside the backend's namespace (its context type must derive from
// cae_plugin::ContextBase and either keep its live tensors in a set `tensors`
// or look a handle up with `tensor(handle, op, name)`, and its tensor type
// must have a `cae_plugin::Shape shape`, like every C++ backend's in plugins/):
//
//   namespace my_backend {
//   CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS();
//   }
//   CAE_DEFINE_BACKEND_ENTRY_WITH(my_backend, ..., CAE_GRAPH_MEMBER_SET);
//
// The interpreter defines struct cae_graph_s: a backend that uses it does
// not define its own.
#pragma once

#include <cae/backend.h>

#include <type_traits>
#include <utility>
#include <vector>

#include "backend_table.hpp"
#include "graph_description.hpp"
#include "op_shapes.hpp"
#include "plugin_support.hpp"
#include "tensor_arguments.hpp"

namespace cae_plugin {

// The members of the backend that the interpreter calls.
struct GraphOps {
#define CAE_GRAPH_OPS_MEMBER_(return_type, name, parameters) return_type(*name) parameters;
  CAE_BACKEND_TABLE_MEMBERS(CAE_GRAPH_OPS_MEMBER_)
#undef CAE_GRAPH_OPS_MEMBER_
  // The shape of a tensor the host binds, which the ABI cannot ask a tensor
  // for: a graph compiled for one batch must refuse tensors of another even
  // where no op would notice (a one-layer encoder reads and writes only
  // bound tensors). Throws Error for a tensor of another context.
  Shape (*bound_shape)(cae_context ctx, cae_tensor t);
  // For a backend whose ops cover only some shapes (nullptr: all of them):
  // throws UNSUPPORTED, as the op member would, for a node it cannot run.
  // graph_compile then answers UNSUPPORTED and the host runs the computation
  // op by op, instead of the graph failing at its first run.
  void (*check_node)(const GraphDescription& graph, const cae_graph_node& node);
};

// The convolution a conv2d_forward / conv2d_backward node computes, from its
// tensors' shapes (for a backend's check_node).
ConvDims graph_conv_dims(const GraphDescription& graph, const cae_graph_node& node);

// The shape of a handle bound at graph_run, through whichever lookup the
// backend's context offers: `tensor(handle, op, name)` (which checks the
// handle itself) or the set `tensors` of live handles.
template <class Context, class = void>
struct HasTensorLookup : std::false_type {};
template <class Context>
struct HasTensorLookup<Context, std::void_t<decltype(std::declval<const Context&>().tensor(
                                    cae_tensor{}, "", ""))>> : std::true_type {};

template <class Context>
Shape bound_tensor_shape(const Context& ctx, cae_tensor t) {
  if constexpr (HasTensorLookup<Context>::value) {
    return ctx.tensor(t, "graph_run", "binding").shape;
  } else {
    return tensor_argument(ctx, t, "graph_run", "binding")->shape;
  }
}

void compile_graph(const GraphOps& ops, cae_context ctx, const cae_graph_desc* desc,
                   cae_graph* out);
void run_graph(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
               int32_t binding_count, const cae_graph_run_params* params);
void destroy_graph(cae_context ctx, cae_graph graph) noexcept;

}  // namespace cae_plugin

#define CAE_GRAPH_OPS_ENTRY_(return_type, name, parameters) &name,

// Defines graph_compile, graph_run and graph_destroy in the enclosing
// namespace, calling that namespace's op members.
#define CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS() CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS_CHECKING(nullptr)

// The same for a backend whose ops cover only some shapes: `check_node` (see
// GraphOps::check_node) refuses, at graph_compile, a graph it cannot run.
#define CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS_CHECKING(check_node)                                \
  ::cae_plugin::Shape graph_bound_shape(cae_context ctx, cae_tensor t) {                         \
    return ::cae_plugin::bound_tensor_shape(*ctx, t);                                            \
  }                                                                                              \
  cae_status graph_compile(cae_context ctx, const cae_graph_desc* desc, cae_graph* out) {        \
    static const ::cae_plugin::GraphOps ops{                                                     \
        CAE_BACKEND_TABLE_MEMBERS(CAE_GRAPH_OPS_ENTRY_) & graph_bound_shape, check_node};        \
    if (out != nullptr) *out = nullptr;                                                          \
    return ::cae_plugin::guard(ctx, [&] { ::cae_plugin::compile_graph(ops, ctx, desc, out); });  \
  }                                                                                              \
  cae_status graph_run(cae_context ctx, cae_graph graph, const cae_tensor* bindings,             \
                       int32_t binding_count, const cae_graph_run_params* params) {              \
    return ::cae_plugin::guard(                                                                  \
        ctx, [&] { ::cae_plugin::run_graph(ctx, graph, bindings, binding_count, params); });     \
  }                                                                                              \
  void graph_destroy(cae_context ctx, cae_graph graph) { ::cae_plugin::destroy_graph(ctx, graph); } \
  static_assert(true, "CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS needs a ';'")
