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

#include <memory>
#include <string>
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
  // The backend's group_all_reduce_sum (ABI 1.1) for the all_reduce_sum
  // nodes (ABI 1.6); nullptr: a graph with them is UNSUPPORTED.
  cae_status (*group_all_reduce_sum)(cae_group group, const cae_tensor* tensors,
                                     int32_t tensors_per_context, float scale);
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

// runs_exchanges: whether this backend runs all_reduce_sum nodes (ABI 1.6)
// through the group exchange (graph_exchange.hpp); without, a graph that has
// them is UNSUPPORTED and the host exchanges the gradients op by op.
void compile_graph(const GraphOps& ops, cae_context ctx, const cae_graph_desc* desc,
                   cae_graph* out, bool runs_exchanges = false);
// bind_graph, then every node in order.
void run_graph(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
               int32_t binding_count, const cae_graph_run_params* params);
void destroy_graph(cae_context ctx, cae_graph graph) noexcept;

// ---- for a backend that wraps the run (plugins/v4/v4_graph.cpp) ----------
//
// It compiles with compile_graph (the checks, the internal tensors), attaches
// its own state to the graph, and runs the nodes itself with run_graph_node,
// on handles of its choosing, around whatever it does before and after
// (capturing the node sequence, replaying it).

// What a backend keeps with a graph; destroyed with the graph, before the
// internal tensors are freed.
struct GraphExtension {
  virtual ~GraphExtension() = default;
};

// One run's checked arguments: the handle each node uses for each graph
// tensor (the binding, or the graph's internal tensor) and the run's scalars
// (zero for a graph without optimiser nodes).
struct GraphRun {
  std::vector<cae_tensor> tensors;
  cae_graph_run_params scalars{};
};

// Checks a run's arguments against the graph (count, NULLs, shapes, no
// handle bound twice, the run's parameters where a node updates) and pairs
// them with the internal tensors. Throws Error(INVALID_ARGUMENT) naming the
// binding.
GraphRun bind_graph(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
                    int32_t binding_count, const cae_graph_run_params* params);
// Calls node `index` through the backend's op member, on tensors[i] for
// graph tensor i; a failure names the node.
void run_graph_node(cae_graph graph, size_t index, const std::vector<cae_tensor>& tensors,
                    const cae_graph_run_params& scalars);
// A run on `ctx` of a graph with all_reduce_sum nodes failed: the other
// members' runs fail at their exchanges instead of waiting (run_graph does
// this; a backend that walks the nodes itself calls it when its run fails).
// Nothing for a NULL graph or one compiled on another context (a run refused
// for that reason is not this member's).
void fail_exchanges(cae_context ctx, cae_graph graph, const std::string& why) noexcept;
// For a backend that queues all of a run's exchanges on the device at once
// (v4's captured graphs): returns once every member of the graph's group is
// about to do the same, so that no member's device waits for a member that
// will never send; throws Error when another member's run failed. Nothing
// for a graph without all_reduce_sum nodes.
void meet_exchanges(cae_graph graph);
const GraphDescription& graph_description(cae_graph graph);
GraphExtension* graph_extension(cae_graph graph);
void set_graph_extension(cae_graph graph, std::unique_ptr<GraphExtension> extension);
// Whether the node is an optimiser update (it reads the run's scalars).
bool graph_node_updates(const cae_graph_node& node);

}  // namespace cae_plugin

#define CAE_GRAPH_OPS_ENTRY_(return_type, name, parameters) &name,

// Defines, in the enclosing namespace, graph_ops(): the GraphOps of that
// namespace's op members with `check_node` (see GraphOps::check_node;
// nullptr for none), for compile_graph.
#define CAE_DEFINE_GRAPH_OPS(check_node) CAE_DEFINE_GRAPH_OPS_WITH(check_node, nullptr)

// The same with the exchange's all-reduce (GraphOps::group_all_reduce_sum).
#define CAE_DEFINE_GRAPH_OPS_WITH(check_node, all_reduce)                                        \
  ::cae_plugin::Shape graph_bound_shape(cae_context ctx, cae_tensor t) {                         \
    return ::cae_plugin::bound_tensor_shape(*ctx, t);                                            \
  }                                                                                              \
  const ::cae_plugin::GraphOps& graph_ops() {                                                    \
    static const ::cae_plugin::GraphOps ops{                                                     \
        CAE_BACKEND_TABLE_MEMBERS(CAE_GRAPH_OPS_ENTRY_) & graph_bound_shape, check_node,         \
        all_reduce};                                                                             \
    return ops;                                                                                  \
  }                                                                                              \
  static_assert(true, "CAE_DEFINE_GRAPH_OPS needs a ';'")

// Defines graph_compile, graph_run and graph_destroy in the enclosing
// namespace, calling that namespace's op members.
#define CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS() CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS_CHECKING(nullptr)

// The same, with the gradient exchange of data parallelism as graph nodes
// (ABI 1.6 all_reduce_sum, through the backend's group_all_reduce_sum).
#define CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS_WITH_EXCHANGES()                                   \
  CAE_DEFINE_GRAPH_OPS_WITH(nullptr, &group_all_reduce_sum);                                     \
  CAE_DEFINE_GRAPH_INTERPRETER_RUN_MEMBERS(true)

// The same for a backend whose ops cover only some shapes: `check_node` (see
// GraphOps::check_node) refuses, at graph_compile, a graph it cannot run.
#define CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS_CHECKING(check_node)                                \
  CAE_DEFINE_GRAPH_OPS(check_node);                                                              \
  CAE_DEFINE_GRAPH_INTERPRETER_RUN_MEMBERS(false)

// graph_compile, graph_run and graph_destroy over graph_ops().
#define CAE_DEFINE_GRAPH_INTERPRETER_RUN_MEMBERS(runs_exchanges)                                 \
  cae_status graph_compile(cae_context ctx, const cae_graph_desc* desc, cae_graph* out) {        \
    if (out != nullptr) *out = nullptr;                                                          \
    return ::cae_plugin::guard(ctx, [&] {                                                        \
      ::cae_plugin::compile_graph(graph_ops(), ctx, desc, out, runs_exchanges);                  \
    });                                                                                          \
  }                                                                                              \
  cae_status graph_run(cae_context ctx, cae_graph graph, const cae_tensor* bindings,             \
                       int32_t binding_count, const cae_graph_run_params* params) {              \
    return ::cae_plugin::guard(                                                                  \
        ctx, [&] { ::cae_plugin::run_graph(ctx, graph, bindings, binding_count, params); });     \
  }                                                                                              \
  void graph_destroy(cae_context ctx, cae_graph graph) { ::cae_plugin::destroy_graph(ctx, graph); } \
  static_assert(true, "CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS needs a ';'")
