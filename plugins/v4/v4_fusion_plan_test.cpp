// Host-only checks of which node sequences v4's graphs run fused
// (v4_fusion_plan.hpp): the first layer with its pool and the last layer with
// the upsampling before it are matched, forward alone and with their
// backward nodes; anything that would make a fused kernel compute something
// else than the nodes it replaces (another reader, a requested data
// gradient, a shape the kernels do not cover, a node in between that sees
// the difference) leaves every node to run as itself.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "v4_fusion_plan.hpp"

#include <doctest/doctest.h>

#include <initializer_list>
#include <vector>

namespace {

using cae_v4::FusionPlan;
using Step = FusionPlan::Step;

struct Graph {
  cae_plugin::GraphDescription d;

  int32_t tensor(int32_t role, std::initializer_list<int64_t> dims) {
    cae_graph_tensor t{};
    t.role = role;
    t.ndim = int32_t(dims.size());
    int i = 0;
    for (int64_t v : dims) t.dims[i++] = v;
    d.tensors.push_back(t);
    return int32_t(d.tensors.size() - 1);
  }
  cae_graph_node& node(int32_t op, std::initializer_list<int32_t> args) {
    cae_graph_node n{};
    n.op = op;
    for (int32_t& a : n.args) a = -1;
    int i = 0;
    for (int32_t a : args) n.args[i++] = a;
    d.nodes.push_back(n);
    return d.nodes.back();
  }
};

std::vector<Step> steps(const Graph& g, bool enabled = true) {
  return cae_v4::plan_fusions(g.d, enabled).steps;
}

// conv (C -> 8 channels, K x K, ReLU) on 8x8 images and its 2x2 max-pool;
// with `backward`, an MSE on the pooled output and the layer's backward nodes.
struct FirstLayer : Graph {
  int32_t x, w, b, full, pooled, target, loss, dpooled, dfull, dw, db;
  FirstLayer(int64_t C, int64_t K, bool backward) {
    x = tensor(CAE_GRAPH_INPUT, {2, C, 8, 8});
    w = tensor(CAE_GRAPH_PARAMETER, {8, C, K, K});
    b = tensor(CAE_GRAPH_PARAMETER, {8});
    full = tensor(CAE_GRAPH_INTERNAL, {2, 8, 8, 8});
    pooled = tensor(backward ? CAE_GRAPH_INTERNAL : CAE_GRAPH_OUTPUT, {2, 8, 4, 4});
    node(CAE_GRAPH_CONV2D_FORWARD, {x, w, b, full}).fuse_relu = 1;
    node(CAE_GRAPH_MAXPOOL2X2_FORWARD, {full, pooled});
    if (!backward) return;
    target = tensor(CAE_GRAPH_INPUT, {2, 8, 4, 4});
    loss = tensor(CAE_GRAPH_OUTPUT, {1});
    dpooled = tensor(CAE_GRAPH_INTERNAL, {2, 8, 4, 4});
    dfull = tensor(CAE_GRAPH_INTERNAL, {2, 8, 8, 8});
    dw = tensor(CAE_GRAPH_OUTPUT, {8, C, K, K});
    db = tensor(CAE_GRAPH_OUTPUT, {8});
    node(CAE_GRAPH_MSE_LOSS, {pooled, target, loss, dpooled});
    node(CAE_GRAPH_MAXPOOL2X2_BACKWARD, {full, dpooled, dfull});
    node(CAE_GRAPH_RELU_BACKWARD, {full, dfull, dfull});
    node(CAE_GRAPH_CONV2D_BACKWARD, {x, w, dfull, -1, dw, db});
  }
};

// upsample t (8 channels, 4x4) to 8x8, conv to 3 channels, MSE; with
// `backward`, the backward nodes with the gradients exchanged in between
// and the ReLU backward of t after the upsample's.
struct LastLayer : Graph {
  int32_t t, big, w, b, y, target, loss, dy, dbig, dw, db, dt;
  explicit LastLayer(bool backward, int32_t fuse_relu = 0) {
    t = tensor(CAE_GRAPH_INTERNAL, {2, 8, 4, 4});
    big = tensor(CAE_GRAPH_INTERNAL, {2, 8, 8, 8});
    w = tensor(CAE_GRAPH_PARAMETER, {3, 8, 3, 3});
    b = tensor(CAE_GRAPH_PARAMETER, {3});
    y = tensor(CAE_GRAPH_INTERNAL, {2, 3, 8, 8});
    target = tensor(CAE_GRAPH_INPUT, {2, 3, 8, 8});
    loss = tensor(CAE_GRAPH_OUTPUT, {1});
    node(CAE_GRAPH_UPSAMPLE2X_FORWARD, {t, big});
    node(CAE_GRAPH_CONV2D_FORWARD, {big, w, b, y}).fuse_relu = fuse_relu;
    if (!backward) {
      node(CAE_GRAPH_MSE_LOSS, {y, target, loss, -1});
      return;
    }
    dy = tensor(CAE_GRAPH_INTERNAL, {2, 3, 8, 8});
    dbig = tensor(CAE_GRAPH_INTERNAL, {2, 8, 8, 8});
    dw = tensor(CAE_GRAPH_OUTPUT, {3, 8, 3, 3});
    db = tensor(CAE_GRAPH_OUTPUT, {3});
    dt = tensor(CAE_GRAPH_INTERNAL, {2, 8, 4, 4});
    node(CAE_GRAPH_MSE_LOSS, {y, target, loss, dy});
    node(CAE_GRAPH_CONV2D_BACKWARD, {big, w, dy, dbig, dw, db});
    node(CAE_GRAPH_ALL_REDUCE_SUM, {dw}).scale = 0.5f;
    node(CAE_GRAPH_ALL_REDUCE_SUM, {db}).scale = 0.5f;
    node(CAE_GRAPH_UPSAMPLE2X_BACKWARD, {dbig, dt});
    node(CAE_GRAPH_RELU_BACKWARD, {t, dt, dt});
  }
};

}  // namespace

TEST_CASE("a first layer and its pool, forward only: the pool is folded into the convolution") {
  const FirstLayer g(3, 3, false);
  const FusionPlan plan = cae_v4::plan_fusions(g.d, true);
  CHECK(plan.steps == std::vector<Step>{Step::forward, Step::skipped});
  REQUIRE(plan.layers.size() == 1);
  CHECK(plan.layers[0].kind == cae_v4::FusedLayer::Kind::pooled);
  CHECK_FALSE(plan.layers[0].has_backward());
  CHECK(plan.layers[0].out == g.pooled);
}

TEST_CASE(
    "a first layer in a training step: forward at the convolution, backward at its backward") {
  const FirstLayer g(3, 3, true);
  const FusionPlan plan = cae_v4::plan_fusions(g.d, true);
  CHECK(plan.steps == std::vector<Step>{Step::forward, Step::skipped, Step::node, Step::skipped,
                                        Step::skipped, Step::backward});
  REQUIRE(plan.layers.size() == 1);
  const cae_v4::FusedLayer& layer = plan.layers[0];
  CHECK(layer.backward_node == 5);
  CHECK(layer.dout == g.dpooled);
  CHECK(layer.dw == g.dw);
  CHECK(layer.db == g.db);
  CHECK(layer.dims.C == 3);
  CHECK(layer.dims.O == 8);
}

TEST_CASE("graph-fusion=off: every node runs as itself") {
  CHECK(steps(FirstLayer(3, 3, true), false) == std::vector<Step>(6, Step::node));
  CHECK(steps(LastLayer(true), false) == std::vector<Step>(8, Step::node));
}

TEST_CASE("the first layer stays op by op where fusing would change what is computed") {
  SUBCASE("its data gradient is asked for") {
    FirstLayer g(3, 3, true);
    const int32_t dx = g.tensor(CAE_GRAPH_OUTPUT, {2, 3, 8, 8});
    g.d.nodes.back().args[3] = dx;
    CHECK(steps(g) == std::vector<Step>(6, Step::node));
  }
  SUBCASE("another node reads the full-size output") {
    FirstLayer g(3, 3, false);
    const int32_t copy = g.tensor(CAE_GRAPH_OUTPUT, {2, 8, 8, 8});
    g.node(CAE_GRAPH_RELU_FORWARD, {g.full, copy});
    CHECK(steps(g) == std::vector<Step>(3, Step::node));
  }
  SUBCASE("the full-size output is bound, not internal") {
    FirstLayer g(3, 3, false);
    g.d.tensors[size_t(g.full)].role = CAE_GRAPH_OUTPUT;
    CHECK(steps(g) == std::vector<Step>(2, Step::node));
  }
  SUBCASE("no ReLU before the pool") {
    FirstLayer g(3, 3, false);
    g.d.nodes[0].fuse_relu = 0;
    CHECK(steps(g) == std::vector<Step>(2, Step::node));
  }
  SUBCASE("too many input channels or taps for the kernels") {
    CHECK(steps(FirstLayer(5, 3, true)) == std::vector<Step>(6, Step::node));
    CHECK(steps(FirstLayer(4, 5, true)) == std::vector<Step>(6, Step::node));
    CHECK(steps(FirstLayer(1, 5, true))[0] == Step::forward);
  }
}

TEST_CASE("a last layer after an upsampling, forward only: the upsampling is folded in") {
  const LastLayer g(false);
  const FusionPlan plan = cae_v4::plan_fusions(g.d, true);
  CHECK(plan.steps == std::vector<Step>{Step::skipped, Step::forward, Step::node});
  REQUIRE(plan.layers.size() == 1);
  CHECK(plan.layers[0].kind == cae_v4::FusedLayer::Kind::upsampled);
  CHECK(plan.layers[0].x == g.t);
  CHECK(plan.layers[0].out == g.y);
}

TEST_CASE("a last layer in a training step: the upsample's backward and t's ReLU backward merged") {
  const LastLayer g(true);
  const FusionPlan plan = cae_v4::plan_fusions(g.d, true);
  CHECK(plan.steps == std::vector<Step>{Step::skipped, Step::forward, Step::node, Step::backward,
                                        Step::node, Step::node, Step::skipped, Step::skipped});
  REQUIRE(plan.layers.size() == 1);
  CHECK(plan.layers[0].dsmall == g.dt);
  CHECK(plan.layers[0].relu_small);
  CHECK(plan.layers[0].dout == g.dy);
}

TEST_CASE("the last layer stays op by op where fusing would change what is computed") {
  SUBCASE("its output goes through a ReLU") {
    CHECK(steps(LastLayer(true, 1)) == std::vector<Step>(8, Step::node));
  }
  SUBCASE("its output is read by a max-pool, not only a loss") {
    LastLayer g(false);
    const int32_t pooled = g.tensor(CAE_GRAPH_OUTPUT, {2, 3, 4, 4});
    g.node(CAE_GRAPH_MAXPOOL2X2_FORWARD, {g.y, pooled});
    CHECK(steps(g) == std::vector<Step>(4, Step::node));
  }
  SUBCASE("a node between its backward and the upsample's writes t") {
    LastLayer g(true);
    g.d.nodes.insert(g.d.nodes.begin() + 4, g.d.nodes[0]);  // a copy of the upsampling...
    g.d.nodes[4].op = CAE_GRAPH_RELU_FORWARD;               // ...made a ReLU in place on t
    g.d.nodes[4].args[0] = g.t;
    g.d.nodes[4].args[1] = g.t;
    CHECK(steps(g) == std::vector<Step>(9, Step::node));
  }
  SUBCASE("the upsampled tensor is read by another node") {
    LastLayer g(false);
    const int32_t copy = g.tensor(CAE_GRAPH_OUTPUT, {2, 8, 8, 8});
    g.node(CAE_GRAPH_RELU_FORWARD, {g.big, copy});
    CHECK(steps(g) == std::vector<Step>(4, Step::node));
  }
  SUBCASE("more outputs than the kernels keep") {
    LastLayer g(false);
    g.d.tensors[size_t(g.w)].dims[0] = 5;
    CHECK(steps(g) == std::vector<Step>(3, Step::node));
  }
}
