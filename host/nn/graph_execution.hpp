// How the model runs on a backend: whole graphs (ABI 1.5) or op by op, and
// the graphs compiled so far. A graph is compiled once per purpose and
// batch size and reused; a new batch size (the epoch's partial last batch)
// is a new graph, never a replay of another's.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "nn/graph_builder.hpp"
#include "plugin/compiled_graph.hpp"
#include "plugin/context.hpp"

namespace cae::nn {

// auto: graphs where the backend compiles them, op by op elsewhere;
// graph: graphs or an error; ops: op by op always.
enum class Execution { Auto, Graph, Ops };

// "auto", "graph", "ops"; throws std::invalid_argument naming the choices.
Execution parse_execution(const std::string& text);
const char* execution_name(Execution execution);

class GraphCache {
 public:
  GraphCache(Context& context, Execution execution) : context_(context), execution_(execution) {}

  struct Entry {
    GraphSpec spec;
    std::unique_ptr<CompiledGraph> graph;  // null: run op by op
  };

  // The graph for `key`, built and compiled on first use; nullptr when the
  // computation runs op by op (execution ops, or auto and the backend does
  // not compile it). With execution graph, a backend that does not compile
  // it is an error (BackendError, UNSUPPORTED) naming the backend, unless
  // the graph is `optional` (one with a fallback of its own in graph mode
  // too: the gradient exchange inside the step, ABI 1.6).
  const Entry* find(const std::string& key, const std::function<GraphSpec()>& build,
                    bool optional = false);

  Execution execution() const { return execution_; }

 private:
  Context& context_;
  Execution execution_;
  std::map<std::string, Entry> entries_;
};

}  // namespace cae::nn
