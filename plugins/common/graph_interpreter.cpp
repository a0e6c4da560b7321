#include "graph_interpreter.hpp"

#include "graph_exchange.hpp"

#include <cmath>
#include <string>
#include <memory>
#include <utility>

struct cae_graph_s {
  cae_plugin::GraphOps ops{};
  cae_context ctx = nullptr;
  cae_plugin::GraphDescription description;
  std::vector<cae_tensor> internal;  // per tensor index; NULL for bound ones
  std::unique_ptr<cae_plugin::GraphExtension> extension;
  std::shared_ptr<cae_plugin::GroupExchange> exchange;  // with all_reduce_sum nodes
};

namespace cae_plugin {
namespace {

void free_internal(cae_graph_s& g) noexcept {
  for (cae_tensor& t : g.internal) {
    if (t != nullptr) g.ops.tensor_free(g.ctx, t);
    t = nullptr;
  }
}

// A failed op member already left its message in last_error(ctx); the
// graph's message adds which node it was.
void call(const cae_graph_s& g, size_t node, cae_status status) {
  if (status == CAE_STATUS_OK) return;
  fail(status, "graph node " + std::to_string(node) + " (" +
                   graph_op_name(g.description.nodes[node].op) + "): " + g.ops.last_error(g.ctx));
}

void run_node(const cae_graph_s& g, size_t index, const std::vector<cae_tensor>& t,
              const cae_graph_run_params& params) {
  const cae_graph_node& n = g.description.nodes[index];
  auto a = [&](int arg) { return n.args[arg] >= 0 ? t[size_t(n.args[arg])] : nullptr; };
  const GraphOps& o = g.ops;
  cae_context c = g.ctx;
  switch (n.op) {
    case CAE_GRAPH_CONV2D_FORWARD:
      return call(g, index, o.conv2d_forward(c, a(0), a(1), a(2), a(3), n.fuse_relu));
    case CAE_GRAPH_CONV2D_BACKWARD:
      return call(g, index, o.conv2d_backward(c, a(0), a(1), a(2), a(3), a(4), a(5)));
    case CAE_GRAPH_RELU_FORWARD:
      return call(g, index, o.relu_forward(c, a(0), a(1)));
    case CAE_GRAPH_RELU_BACKWARD:
      return call(g, index, o.relu_backward(c, a(0), a(1), a(2)));
    case CAE_GRAPH_MAXPOOL2X2_FORWARD:
      return call(g, index, o.maxpool2x2_forward(c, a(0), a(1)));
    case CAE_GRAPH_MAXPOOL2X2_BACKWARD:
      return call(g, index, o.maxpool2x2_backward(c, a(0), a(1), a(2)));
    case CAE_GRAPH_UPSAMPLE2X_FORWARD:
      return call(g, index, o.upsample2x_forward(c, a(0), a(1)));
    case CAE_GRAPH_UPSAMPLE2X_BACKWARD:
      return call(g, index, o.upsample2x_backward(c, a(0), a(1)));
    case CAE_GRAPH_MSE_LOSS:
      return call(g, index, o.mse_loss(c, a(0), a(1), a(2), a(3)));
    case CAE_GRAPH_SGD_STEP:
      return call(g, index,
                  o.sgd_step(c, a(0), a(1), a(2), params.learning_rate, n.momentum, n.weight_decay));
    case CAE_GRAPH_ADAM_STEP: {
      const cae_adam_params adam{params.learning_rate, n.beta1,        n.beta2,
                                 n.epsilon,            n.weight_decay, params.adam_step};
      return call(g, index, o.adam_step(c, a(0), a(1), a(2), a(3), &adam));
    }
    case CAE_GRAPH_ALL_REDUCE_SUM:
      try {
        g.exchange->all_reduce(g.description.group_member, a(0), n.scale,
                               o.group_all_reduce_sum, o.last_error, c);
      } catch (const Error& e) {
        fail(e.status(), "graph node " + std::to_string(index) + " (all_reduce_sum): " + e.what());
      }
      return;
    default:
      fail(CAE_STATUS_INTERNAL, "graph node " + std::to_string(index) + ": unknown op");
  }
}

// Whether some node needs the run's scalars (an optimiser update).
bool updates(const GraphDescription& d) {
  for (const cae_graph_node& n : d.nodes) {
    if (graph_node_updates(n)) return true;
  }
  return false;
}

}  // namespace

ConvDims graph_conv_dims(const GraphDescription& graph, const cae_graph_node& node) {
  const cae_graph_tensor& x = graph.tensors[size_t(node.args[0])];
  const cae_graph_tensor& w = graph.tensors[size_t(node.args[1])];
  return {x.dims[0], x.dims[1], x.dims[2], x.dims[3], w.dims[0], w.dims[2]};
}

bool graph_node_updates(const cae_graph_node& node) {
  return node.op == CAE_GRAPH_SGD_STEP || node.op == CAE_GRAPH_ADAM_STEP;
}

void compile_graph(const GraphOps& ops, cae_context ctx, const cae_graph_desc* desc,
                   cae_graph* out, bool runs_exchanges) {
  require(ctx != nullptr, "graph_compile: context is NULL");
  require(out != nullptr, "graph_compile: output graph pointer is NULL");
  // Before any check: a backend that leaves the exchange to the host says
  // so (UNSUPPORTED), whatever else the description holds.
  if (!runs_exchanges && describes_exchanges(desc)) {
    fail(CAE_STATUS_UNSUPPORTED,
         "graph_compile: this backend exchanges gradients op by op (group_all_reduce_sum), "
         "not as all_reduce_sum nodes");
  }
  auto g = std::make_unique<cae_graph_s>();
  g->ops = ops;
  g->ctx = ctx;
  g->description = read_graph_description(desc);
  if (graph_exchanges(g->description)) {
    if (ops.group_all_reduce_sum == nullptr) {
      fail(CAE_STATUS_UNSUPPORTED,
           "graph_compile: all_reduce_sum nodes need the backend's group_all_reduce_sum");
    }
    g->exchange = GroupExchange::of(g->description.group, g->description.group_members);
  }
  if (ops.check_node != nullptr) {
    for (size_t i = 0; i < g->description.nodes.size(); ++i) {
      const cae_graph_node& node = g->description.nodes[i];
      try {
        ops.check_node(g->description, node);
      } catch (const Error& e) {
        fail(e.status(), "graph node " + std::to_string(i) + " (" + graph_op_name(node.op) +
                             "): " + e.what());
      }
    }
  }
  g->internal.assign(g->description.tensors.size(), nullptr);
  try {
    for (size_t i = 0; i < g->description.tensors.size(); ++i) {
      const cae_graph_tensor& t = g->description.tensors[i];
      if (t.role != CAE_GRAPH_INTERNAL) continue;
      const cae_status status = ops.tensor_alloc(ctx, t.ndim, t.dims, &g->internal[i]);
      if (status != CAE_STATUS_OK) {
        fail(status, "graph tensor " + std::to_string(i) + ": " + ops.last_error(ctx));
      }
    }
  } catch (...) {
    free_internal(*g);
    throw;
  }
  *out = g.release();
}

GraphRun bind_graph(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
                    int32_t binding_count, const cae_graph_run_params* params) {
  require(graph != nullptr, "graph_run: graph is NULL");
  require(graph->ctx == ctx, "graph_run: the graph was compiled on another context");
  const GraphDescription& d = graph->description;
  require(binding_count == int32_t(d.tensors.size()),
          "graph_run: " + std::to_string(binding_count) + " bindings for a graph of " +
              std::to_string(d.tensors.size()) + " tensors");
  require(bindings != nullptr, "graph_run: bindings is NULL");
  GraphRun run;
  if (updates(d)) {
    require(params != nullptr && params->struct_size >= sizeof(cae_graph_run_params),
            "graph_run: the graph updates parameters and needs its run parameters");
    run.scalars = *params;
    require(std::isfinite(run.scalars.learning_rate),
            "graph_run: learning_rate is not a finite number");
  }
  run.tensors.resize(d.tensors.size());
  for (size_t i = 0; i < d.tensors.size(); ++i) {
    if (d.tensors[i].role == CAE_GRAPH_INTERNAL) {
      require(bindings[i] == nullptr,
              "graph_run: binding " + std::to_string(i) + " is for an internal tensor: pass NULL");
      run.tensors[i] = graph->internal[i];
      continue;
    }
    require(bindings[i] != nullptr, "graph_run: binding " + std::to_string(i) + " is NULL");
    const Shape bound = graph->ops.bound_shape(ctx, bindings[i]);
    const Shape declared = graph_tensor_shape(d.tensors[i]);
    bool same = bound.ndim == declared.ndim;
    for (int32_t k = 0; same && k < declared.ndim; ++k) same = bound.dims[k] == declared.dims[k];
    require(same, "graph_run: binding " + std::to_string(i) + " is " + bound.str() +
                      ", but the graph was compiled for " + declared.str() +
                      " (another batch size is another graph)");
    for (size_t j = 0; j < i; ++j) {
      require(bindings[j] != bindings[i], "graph_run: bindings " + std::to_string(j) + " and " +
                                              std::to_string(i) + " are the same tensor");
    }
    run.tensors[i] = bindings[i];
  }
  return run;
}

void run_graph_node(cae_graph graph, size_t index, const std::vector<cae_tensor>& tensors,
                    const cae_graph_run_params& scalars) {
  run_node(*graph, index, tensors, scalars);
}

void run_graph(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
               int32_t binding_count, const cae_graph_run_params* params) {
  try {
    const GraphRun run = bind_graph(ctx, graph, bindings, binding_count, params);
    for (size_t n = 0; n < graph->description.nodes.size(); ++n) {
      run_node(*graph, n, run.tensors, run.scalars);
    }
  } catch (const std::exception& e) {
    // The other members must not wait at an exchange this run never reaches.
    fail_exchanges(ctx, graph, e.what());
    throw;
  }
}

void fail_exchanges(cae_context ctx, cae_graph graph, const std::string& why) noexcept {
  if (graph != nullptr && graph->ctx == ctx && graph->exchange) {
    graph->exchange->fail_for_everyone(why);
  }
}

void meet_exchanges(cae_graph graph) {
  if (graph->exchange) graph->exchange->meet(graph->description.group_member);
}

const GraphDescription& graph_description(cae_graph graph) { return graph->description; }

GraphExtension* graph_extension(cae_graph graph) { return graph->extension.get(); }

void set_graph_extension(cae_graph graph, std::unique_ptr<GraphExtension> extension) {
  graph->extension = std::move(extension);
}

void destroy_graph(cae_context ctx, cae_graph graph) noexcept {
  if (graph == nullptr || graph->ctx != ctx) return;
  graph->extension.reset();  // it may use the internal tensors until it goes
  free_internal(*graph);
  delete graph;
}

}  // namespace cae_plugin
