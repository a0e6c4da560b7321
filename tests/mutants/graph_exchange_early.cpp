// graph-exchange-early: a backend that overlaps the gradient exchange with
// the backward pass and starts each exchange before its gradient is final (a
// missing wait on the node that writes it). Its graphs with all_reduce_sum
// nodes (ABI 1.6) run through the plugins' own interpreter on the cpu
// backend's members, in node order except that every exchange runs just
// before the node that writes its tensor: it sums what the tensor held
// before. Graphs without exchanges, and the op path, stay the cpu backend's.
#include <mutex>
#include <set>
#include <vector>

#include "graph_description.hpp"
#include "graph_interpreter.hpp"
#include "mutant_core.hpp"

namespace mutant {
namespace {

std::mutex graphs_mutex;
std::set<cae_graph> early_graphs;  // the graphs this mutant runs itself

cae_plugin::Shape bound_shape(cae_context, cae_tensor t) {
  const Dims dims = dims_of(t);
  return cae_plugin::make_shape(int32_t(dims.size()), dims.data());
}

const cae_plugin::GraphOps& base_ops() {
  static const cae_plugin::GraphOps ops = [] {
    cae_plugin::GraphOps o{};
#define MUTANT_BASE_MEMBER_(return_type, name, parameters) o.name = base().name;
    CAE_BACKEND_TABLE_MEMBERS(MUTANT_BASE_MEMBER_)
#undef MUTANT_BASE_MEMBER_
    o.bound_shape = &bound_shape;
    o.check_node = nullptr;
    o.group_all_reduce_sum = base().group_all_reduce_sum;
    return o;
  }();
  return ops;
}

bool is_early(cae_graph graph) {
  std::lock_guard<std::mutex> lock(graphs_mutex);
  return early_graphs.count(graph) != 0;
}

cae_status graph_compile(cae_context ctx, const cae_graph_desc* desc, cae_graph* out) {
  if (!cae_plugin::describes_exchanges(desc)) return base().graph_compile(ctx, desc, out);
  return run([&] {
    cae_plugin::compile_graph(base_ops(), ctx, desc, out, true);
    std::lock_guard<std::mutex> lock(graphs_mutex);
    early_graphs.insert(*out);
  });
}

// Node order with every exchange moved to just before the latest earlier
// node that writes its tensor.
std::vector<size_t> early_order(const cae_plugin::GraphDescription& d) {
  std::vector<size_t> order;
  for (size_t i = 0; i < d.nodes.size(); ++i) {
    if (d.nodes[i].op != CAE_GRAPH_ALL_REDUCE_SUM) {
      order.push_back(i);
      continue;
    }
    const int32_t t = d.nodes[i].args[0];
    size_t at = order.size();
    for (size_t k = order.size(); k-- > 0;) {
      const cae_graph_node& w = d.nodes[order[k]];
      bool writes = false;
      for (int a = 0; a < cae_plugin::graph_op_arg_count(w.op); ++a) {
        writes = writes || (w.args[a] == t && cae_plugin::graph_arg_written(w.op, a));
      }
      if (writes) {
        at = k;
        break;
      }
    }
    order.insert(order.begin() + std::ptrdiff_t(at), i);
  }
  return order;
}

cae_status graph_run(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
                     int32_t binding_count, const cae_graph_run_params* params) {
  if (!is_early(graph)) return base().graph_run(ctx, graph, bindings, binding_count, params);
  return run([&] {
    try {
      const cae_plugin::GraphRun bound =
          cae_plugin::bind_graph(ctx, graph, bindings, binding_count, params);
      for (const size_t node : early_order(cae_plugin::graph_description(graph))) {
        cae_plugin::run_graph_node(graph, node, bound.tensors, bound.scalars);
      }
    } catch (const std::exception& e) {
      cae_plugin::fail_exchanges(ctx, graph, e.what());  // its one bug is the order
      throw;
    }
  });
}

void graph_destroy(cae_context ctx, cae_graph graph) {
  if (!is_early(graph)) return base().graph_destroy(ctx, graph);
  {
    std::lock_guard<std::mutex> lock(graphs_mutex);
    early_graphs.erase(graph);
  }
  cae_plugin::destroy_graph(ctx, graph);
}

}  // namespace

void mutate(cae_backend_table& table) {
  table.graph_compile = graph_compile;
  table.graph_run = graph_run;
  table.graph_destroy = graph_destroy;
}

}  // namespace mutant
