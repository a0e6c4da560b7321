// Host-only checks of which node sequences v4's graphs run fused
// (v4_fusion_plan.hpp): the first layer with its pool and the last layer with
// the upsampling before it are matched, forward alone and with their
// backward nodes; anything that would make a fused kernel compute something
// else than the nodes it replaces (another reader, a requested data
// gradient, a shape the kernels do not cover, a node in between that sees
// the difference) leaves every node to run as itself. A max-pool or upsample
// whose output a convolution's GEMM reads next is run by v4 writing the BF16
// copy it reads, with the ReLU backward the op path would merge merged.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "v4_fusion_plan.hpp"

#include <doctest/doctest.h>

#include <initializer_list>
#include <utility>
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

// A first layer in a training step run op by op: its convolution (3..5
// input channels) is narrow, on the TF32 path, so nothing reads a BF16 copy
// of its pool's gradient and none is written.
const std::vector<Step> kFirstLayerUnfused(6, Step::node);

// A last layer run op by op on `nodes` nodes: its convolution (3 outputs) is
// narrow, so its upsampling writes no BF16 copy of the tensor it reads as x.
std::vector<Step> unfused_last_layer(size_t nodes) { return std::vector<Step>(nodes, Step::node); }

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
    CHECK(steps(g) == kFirstLayerUnfused);
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
    CHECK(steps(FirstLayer(5, 3, true)) == kFirstLayerUnfused);
    CHECK(steps(FirstLayer(4, 5, true)) == kFirstLayerUnfused);
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
    CHECK(steps(LastLayer(true, 1)) == unfused_last_layer(8));
  }
  SUBCASE("its output is read by a max-pool, not only a loss") {
    LastLayer g(false);
    const int32_t pooled = g.tensor(CAE_GRAPH_OUTPUT, {2, 3, 4, 4});
    g.node(CAE_GRAPH_MAXPOOL2X2_FORWARD, {g.y, pooled});
    CHECK(steps(g) == unfused_last_layer(4));
  }
  SUBCASE("a node between its backward and the upsample's writes t") {
    LastLayer g(true);
    g.d.nodes.insert(g.d.nodes.begin() + 4, g.d.nodes[0]);  // a copy of the upsampling...
    g.d.nodes[4].op = CAE_GRAPH_RELU_FORWARD;               // ...made a ReLU in place on t
    g.d.nodes[4].args[0] = g.t;
    g.d.nodes[4].args[1] = g.t;
    CHECK(steps(g) == unfused_last_layer(9));
  }
  SUBCASE("the upsampled tensor is read by another node") {
    LastLayer g(false);
    const int32_t copy = g.tensor(CAE_GRAPH_OUTPUT, {2, 8, 8, 8});
    g.node(CAE_GRAPH_RELU_FORWARD, {g.big, copy});
    CHECK(steps(g) == unfused_last_layer(4));
  }
  SUBCASE("more outputs than the kernels keep") {
    LastLayer g(false);
    g.d.tensors[size_t(g.w)].dims[0] = 5;
    CHECK(steps(g) == unfused_last_layer(3));
  }
}

// A middle layer's resampling and the 3x3 convolution (8 -> 8 channels) that
// reads its output: a max-pool of a (8x8) into p, read as x; with
// `backward`, the pool's backward (and the ReLU backward of a merged into
// it) writing the gradient the convolution before it reads as dy.
struct MiddleLayer : Graph {
  int32_t a, p, w, b, y, dp, da, xin, w0, dw, db;
  explicit MiddleLayer(bool backward) {
    a = tensor(CAE_GRAPH_INTERNAL, {2, 8, 8, 8});
    p = tensor(CAE_GRAPH_INTERNAL, {2, 8, 4, 4});
    w = tensor(CAE_GRAPH_PARAMETER, {8, 8, 3, 3});
    b = tensor(CAE_GRAPH_PARAMETER, {8});
    y = tensor(CAE_GRAPH_OUTPUT, {2, 8, 4, 4});
    node(CAE_GRAPH_MAXPOOL2X2_FORWARD, {a, p});
    node(CAE_GRAPH_CONV2D_FORWARD, {p, w, b, y}).fuse_relu = 1;
    if (!backward) return;
    dp = tensor(CAE_GRAPH_INPUT, {2, 8, 4, 4});
    da = tensor(CAE_GRAPH_INTERNAL, {2, 8, 8, 8});
    xin = tensor(CAE_GRAPH_INPUT, {2, 8, 8, 8});
    w0 = tensor(CAE_GRAPH_PARAMETER, {8, 8, 3, 3});
    dw = tensor(CAE_GRAPH_OUTPUT, {8, 8, 3, 3});
    db = tensor(CAE_GRAPH_OUTPUT, {8});
    node(CAE_GRAPH_MAXPOOL2X2_BACKWARD, {a, dp, da});
    node(CAE_GRAPH_RELU_BACKWARD, {a, da, da});
    node(CAE_GRAPH_CONV2D_BACKWARD, {xin, w0, da, -1, dw, db});
  }
};

TEST_CASE("a resample whose output a convolution reads writes its BF16 copy") {
  SUBCASE("a max-pool read as the next layer's x") {
    const MiddleLayer g(false);
    const FusionPlan plan = cae_v4::plan_fusions(g.d, true);
    CHECK(plan.steps == std::vector<Step>{Step::copying, Step::node});
    REQUIRE(plan.resamples.size() == 1);
    CHECK(plan.layer_of[0] == 0);
    CHECK(plan.resamples[0].out == g.p);
    CHECK_FALSE(plan.resamples[0].gradient());
  }
  SUBCASE("an upsample read as the next layer's x") {
    MiddleLayer g(false);
    g.d.nodes[0].op = CAE_GRAPH_UPSAMPLE2X_FORWARD;
    std::swap(g.d.tensors[size_t(g.a)].dims[2], g.d.tensors[size_t(g.p)].dims[2]);
    CHECK(steps(g) == std::vector<Step>{Step::copying, Step::node});
  }
  SUBCASE("the pool's backward with the ReLU backward of its input merged, read as dy") {
    const MiddleLayer g(true);
    const FusionPlan plan = cae_v4::plan_fusions(g.d, true);
    CHECK(plan.steps ==
          std::vector<Step>{Step::copying, Step::node, Step::copying, Step::skipped, Step::node});
    REQUIRE(plan.resamples.size() == 2);
    CHECK(plan.layer_of[2] == 1);
    CHECK(plan.resamples[1].gradient());
    CHECK(plan.resamples[1].out == g.da);
    CHECK(plan.resamples[1].relu_y == g.a);
  }
  SUBCASE("an upsample's backward without a ReLU after it") {
    Graph g;
    const int32_t dbig = g.tensor(CAE_GRAPH_INPUT, {2, 8, 8, 8});
    const int32_t dsmall = g.tensor(CAE_GRAPH_INTERNAL, {2, 8, 4, 4});
    const int32_t x = g.tensor(CAE_GRAPH_INPUT, {2, 8, 4, 4});
    const int32_t w = g.tensor(CAE_GRAPH_PARAMETER, {8, 8, 3, 3});
    const int32_t dw = g.tensor(CAE_GRAPH_OUTPUT, {8, 8, 3, 3});
    const int32_t db = g.tensor(CAE_GRAPH_OUTPUT, {8});
    g.node(CAE_GRAPH_UPSAMPLE2X_BACKWARD, {dbig, dsmall});
    g.node(CAE_GRAPH_CONV2D_BACKWARD, {x, w, dsmall, -1, dw, db});
    const FusionPlan plan = cae_v4::plan_fusions(g.d, true);
    CHECK(plan.steps == std::vector<Step>{Step::copying, Step::node});
    REQUIRE(plan.resamples.size() == 1);
    CHECK(plan.resamples[0].relu_y == -1);
  }
}

TEST_CASE("a resample writes no copy where no GEMM would read it as it is") {
  SUBCASE("only a loss reads the pooled output") {
    MiddleLayer g(false);
    g.d.nodes[1].op = CAE_GRAPH_MSE_LOSS;
    CHECK(steps(g) == std::vector<Step>(2, Step::node));
  }
  SUBCASE("the gradient is read as the convolution's x, not its dy") {
    MiddleLayer g(true);
    std::swap(g.d.nodes[4].args[0], g.d.nodes[4].args[2]);
    CHECK(steps(g)[2] == Step::node);
  }
  SUBCASE("a ReLU backward the op path does not merge rewrites the gradient at once") {
    MiddleLayer g(true);
    g.d.nodes[3].args[0] = g.xin;  // its mask is not the pool's input
    CHECK(steps(g) ==
          std::vector<Step>{Step::copying, Step::node, Step::node, Step::node, Step::node});
  }
  SUBCASE("the convolution reading it is narrow (3 outputs): the TF32 path reads FP32") {
    MiddleLayer g(false);
    g.d.tensors[size_t(g.w)].dims[0] = 3;
    CHECK(steps(g) == std::vector<Step>(2, Step::node));
  }
  SUBCASE("the gradient's reader is narrow (4 input channels)") {
    MiddleLayer g(true);
    g.d.tensors[size_t(g.xin)].dims[1] = 4;
    CHECK(steps(g) ==
          std::vector<Step>{Step::copying, Step::node, Step::node, Step::node, Step::node});
  }
  SUBCASE("graph-fusion=off") {
    CHECK(steps(MiddleLayer(true), false) == std::vector<Step>(5, Step::node));
  }
}
