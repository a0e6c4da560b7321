#include "nn/graph_execution.hpp"

#include <stdexcept>

#include "plugin/backend_error.hpp"

namespace cae::nn {
namespace {

// Purposes times two batch sizes stay well below this; a caller that cycles
// through many sizes compiles again rather than holding every graph.
constexpr size_t kMaxGraphs = 16;

}  // namespace

Execution parse_execution(const std::string& text) {
  if (text == "auto") return Execution::Auto;
  if (text == "graph") return Execution::Graph;
  if (text == "ops") return Execution::Ops;
  throw std::invalid_argument("unknown execution '" + text + "' (auto, graph or ops)");
}

const char* execution_name(Execution execution) {
  switch (execution) {
    case Execution::Graph:
      return "graph";
    case Execution::Ops:
      return "ops";
    case Execution::Auto:
      break;
  }
  return "auto";
}

const GraphCache::Entry* GraphCache::find(const std::string& key,
                                          const std::function<GraphSpec()>& build,
                                          bool optional) {
  if (execution_ == Execution::Ops) return nullptr;
  auto found = entries_.find(key);
  if (found == entries_.end()) {
    if (entries_.size() >= kMaxGraphs) entries_.clear();
    Entry entry;
    entry.spec = build();
    entry.graph = CompiledGraph::compile(
        context_, entry.spec.tensors, entry.spec.nodes,
        {entry.spec.group, entry.spec.group_member, entry.spec.group_members});
    if (!entry.graph && execution_ == Execution::Graph && !optional) {
      throw BackendError(CAE_STATUS_UNSUPPORTED,
                         "--execution graph: the backend '" + context_.backend_name() +
                             "' does not compile the " + key.substr(0, key.find('/')) +
                             " graph" +
                             (has_graph_members(context_.table()) ? ""
                                                                  : " (it has no ABI 1.5 graph members)"));
    }
    found = entries_.emplace(key, std::move(entry)).first;
  }
  return found->second.graph ? &found->second : nullptr;
}

}  // namespace cae::nn
