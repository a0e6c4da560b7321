// Graphs (ABI 1.5) next to older plugins: a 1.3 plugin, whose table ends
// before the graph members (it places a graph_compile beyond its struct_size
// that aborts if called), loads and runs op by op beside the cpu backend,
// which compiles and runs graphs; the host never calls what lies beyond a
// table's struct_size.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "plugin/compiled_graph.hpp"
#include "plugin/plugin_file.hpp"
#include "plugin/registry.hpp"

using namespace cae;

namespace {

// relu in place on a 2-element input copied into an output: the smallest
// graph with an input, an internal tensor and an output.
std::vector<cae_graph_tensor> relu_tensors() {
  std::vector<cae_graph_tensor> tensors(2);
  tensors[0].role = CAE_GRAPH_INPUT;
  tensors[1].role = CAE_GRAPH_OUTPUT;
  for (auto& t : tensors) {
    t.ndim = 1;
    t.dims[0] = 2;
  }
  return tensors;
}

std::vector<cae_graph_node> relu_nodes() {
  cae_graph_node node{};
  node.op = CAE_GRAPH_RELU_FORWARD;
  for (int32_t& a : node.args) a = -1;
  node.args[0] = 0;
  node.args[1] = 1;
  return {node};
}

Registry registry_of(std::vector<std::string> dirs) {
  DiscoveryOptions options;
  options.plugin_dirs = std::move(dirs);
  options.use_environment = false;
  options.use_default_dirs = false;
  return Registry::discover(options);
}

}  // namespace

TEST_CASE("a 1.3 plugin loads beside a 1.13 one: graphs where compiled, op by op elsewhere") {
  Registry registry = registry_of({STUB_DIR, CPU_PLUGIN_DIR});
  const BackendRecord* abi13 = registry.find("abi13");
  const BackendRecord* cpu = registry.find("cpu");
  REQUIRE(abi13 != nullptr);
  REQUIRE(cpu != nullptr);
  CHECK(abi13->table().struct_size == CAE_BACKEND_TABLE_SIZE_1_3);
  CHECK(cpu->table().abi_minor == 13);
  CHECK(cpu->table().struct_size == CAE_BACKEND_TABLE_SIZE_1_13);
  CHECK_FALSE(has_graph_members(abi13->table()));
  CHECK(has_graph_members(cpu->table()));

  Context old(abi13->table());
  Context current(cpu->table());
  // The 1.3 plugin yields no graph (and its aborting graph_compile is never called).
  CHECK(CompiledGraph::compile(old, relu_tensors(), relu_nodes()) == nullptr);
  std::unique_ptr<CompiledGraph> graph = CompiledGraph::compile(current, relu_tensors(), relu_nodes());
  REQUIRE(graph != nullptr);
  for (Context* context : {&old, &current}) {
    Tensor x = context->alloc({2});
    Tensor y = context->alloc({2});
    x.upload(std::vector<float>{-1, 2});
    if (context == &current) {
      graph->run({x.handle(), y.handle()});
    } else {
      context->relu_forward(x, y);
    }
    CHECK(y.download() == std::vector<float>{0, 2});
  }
}

TEST_CASE("the cpu backend refuses a description that breaks an op's contract, naming the node") {
  Registry registry = registry_of({CPU_PLUGIN_DIR});
  const BackendRecord* cpu = registry.find("cpu");
  REQUIRE(cpu != nullptr);
  Context context(cpu->table());
  std::vector<cae_graph_tensor> tensors = relu_tensors();
  tensors[1].dims[0] = 3;  // relu's output of another shape
  CHECK_THROWS_WITH_AS(CompiledGraph::compile(context, tensors, relu_nodes()),
                       doctest::Contains("graph node 0 (relu_forward)"), BackendError);
  tensors = relu_tensors();
  std::vector<cae_graph_node> nodes = relu_nodes();
  nodes[0].args[1] = 0;  // writes the input
  CHECK_THROWS_WITH_AS(CompiledGraph::compile(context, tensors, nodes),
                       doctest::Contains("an input"), BackendError);
}
