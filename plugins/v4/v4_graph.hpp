// v4's graphs (ABI 1.5): the interpreter's checks and node walk
// (plugins/common/graph_interpreter.hpp), run once node by node, then
// captured as one CUDA graph on the context's stream and replayed
// (v4_graph.cpp). With the option graph-capture=off, the interpreter alone.
#pragma once

#include <cae/backend.h>

#include "graph_interpreter.hpp"

namespace cae_v4 {

// graph_compile: the interpreter's compile, and what a capture needs.
void compile_graph(const cae_plugin::GraphOps& ops, cae_context ctx, const cae_graph_desc* desc,
                   cae_graph* out);
// graph_run: node by node, by capture, or by replay (see v4_graph.cpp).
void run_graph(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
               int32_t binding_count, const cae_graph_run_params* params);

}  // namespace cae_v4
