// A graph description (ABI 1.5, cae_graph_desc) read and checked once, at
// graph_compile: entries copied out of the caller's arrays at the caller's
// strides, every index, role and attribute checked, and every node's shapes
// checked against its op's contract (op_shapes.hpp), so that a graph that
// compiles can only fail at run time for what a run brings (bindings, the
// learning rate). Any backend may use it, with or without the interpreter.
#pragma once

#include <cae/backend.h>

#include <string>
#include <vector>

#include "plugin_support.hpp"

namespace cae_plugin {

struct GraphDescription {
  std::vector<cae_graph_tensor> tensors;
  std::vector<cae_graph_node> nodes;
  // ABI 1.6: the group of the all_reduce_sum nodes (NULL, 0, 0 without).
  cae_group group = nullptr;
  int32_t group_member = 0;
  int32_t group_members = 0;
};

// Whether the graph has all_reduce_sum nodes (ABI 1.6).
bool graph_exchanges(const GraphDescription& graph);
// The same for a description not yet read (nodes at the caller's stride;
// false for one too malformed to tell, which reading it then refuses).
bool describes_exchanges(const cae_graph_desc* desc);

// The op member's name ("conv2d_forward") for messages; "?" for an unknown op.
const char* graph_op_name(int32_t op);

// The number of tensor arguments of `op` (conv2d_backward: 6), 0 if unknown.
int graph_op_arg_count(int32_t op);

// Whether argument `arg` of `op` may be -1 (the member accepts NULL there).
bool graph_arg_optional(int32_t op, int arg);

// Whether argument `arg` of `op` is written by the op (an output, or a
// tensor an optimiser updates in place).
bool graph_arg_written(int32_t op, int arg);

// Copies and checks `desc`; throws Error(INVALID_ARGUMENT) naming the first
// problem ("graph node 4 (maxpool2x2_forward): ...").
GraphDescription read_graph_description(const cae_graph_desc* desc);

Shape graph_tensor_shape(const cae_graph_tensor& tensor);

}  // namespace cae_plugin
