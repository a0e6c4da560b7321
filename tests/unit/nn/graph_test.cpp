// Graphs (ABI 1.5) built from a network and run by the cpu backend's
// interpreter: the builder lists exactly the op path's calls (the graph and
// op paths give bit-identical results on the cpu backend), the interpreter
// checks a description once at compile and refuses what breaks an op's
// contract, and a graph never runs on tensors of another batch size.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "backends.hpp"
#include "nn/autoencoder.hpp"
#include "nn/graph_builder.hpp"
#include "nn/optimizer.hpp"
#include "plugin/compiled_graph.hpp"

namespace cae::nn {
namespace {

// Four layers on 8x8 images with a 3-channel bottleneck and no ReLU at the
// end: pools, upsamples, a layer without either, and both relu settings.
Network small_network() {
  ModelDescription d;
  d.name = "small";
  d.encoder = {{4, 3, true, true}, {3, 3, true, false}};
  d.decoder = {{5, 3, true, true}, {2, 3, false, false}};
  return Network(d, 2, 8);
}

int count_op(const GraphSpec& spec, int32_t op) {
  int n = 0;
  for (const cae_graph_node& node : spec.nodes) n += node.op == op;
  return n;
}

// Every internal tensor is written by some node before any node reads it.
void check_written_before_read(const GraphSpec& spec) {
  std::vector<bool> written(spec.tensors.size());
  for (size_t t = 0; t < spec.tensors.size(); ++t) {
    written[t] = spec.tensors[t].role != CAE_GRAPH_INTERNAL && spec.tensors[t].role != CAE_GRAPH_OUTPUT;
  }
  // Outputs (arguments written) per op, as in backend.h's table.
  auto writes = [](int32_t op, int arg) {
    switch (op) {
      case CAE_GRAPH_CONV2D_FORWARD: return arg == 3;
      case CAE_GRAPH_CONV2D_BACKWARD: return arg >= 3;
      case CAE_GRAPH_MSE_LOSS: return arg >= 2;
      case CAE_GRAPH_ADAM_STEP: return arg == 0 || arg >= 2;
      case CAE_GRAPH_SGD_STEP: return arg != 1;
      case CAE_GRAPH_RELU_BACKWARD:
      case CAE_GRAPH_MAXPOOL2X2_BACKWARD: return arg == 2;
      default: return arg == 1;
    }
  };
  for (size_t n = 0; n < spec.nodes.size(); ++n) {
    const cae_graph_node& node = spec.nodes[n];
    for (int a = 0; a < CAE_GRAPH_MAX_ARGS; ++a) {
      const int32_t t = node.args[a];
      if (t < 0 || writes(node.op, a)) continue;
      INFO("node " << n << " argument " << a);
      CHECK(written[size_t(t)]);
    }
    for (int a = 0; a < CAE_GRAPH_MAX_ARGS; ++a) {
      if (node.args[a] >= 0 && writes(node.op, a)) written[size_t(node.args[a])] = true;
    }
  }
}

}  // namespace

TEST_CASE("the training graph of the seed network lists the op path's calls") {
  TrainingGraphOptions options;
  options.gradients_visible = false;
  options.update.kind = GraphUpdate::Kind::Adam;
  options.update.beta1 = 0.9f;
  options.update.beta2 = 0.999f;
  options.update.epsilon = 1e-8f;
  const GraphSpec spec = build_training_graph(Network::seed(), 64, options);
  CHECK(count_op(spec, CAE_GRAPH_CONV2D_FORWARD) == 5);
  CHECK(count_op(spec, CAE_GRAPH_MAXPOOL2X2_FORWARD) == 2);
  CHECK(count_op(spec, CAE_GRAPH_UPSAMPLE2X_FORWARD) == 2);
  CHECK(count_op(spec, CAE_GRAPH_MSE_LOSS) == 1);
  CHECK(count_op(spec, CAE_GRAPH_RELU_BACKWARD) == 4);  // decoder.conv3 has no ReLU
  CHECK(count_op(spec, CAE_GRAPH_CONV2D_BACKWARD) == 5);
  CHECK(count_op(spec, CAE_GRAPH_MAXPOOL2X2_BACKWARD) == 2);
  CHECK(count_op(spec, CAE_GRAPH_UPSAMPLE2X_BACKWARD) == 2);
  CHECK(count_op(spec, CAE_GRAPH_ADAM_STEP) == 10);
  CHECK(spec.nodes.size() == 33);
  // Updates come last, after every gradient is final.
  for (size_t n = spec.nodes.size() - 10; n < spec.nodes.size(); ++n) {
    CHECK(spec.nodes[n].op == CAE_GRAPH_ADAM_STEP);
  }
  CHECK(spec.parameters.size() == 10);
  CHECK(spec.first_state.size() == 10);
  CHECK(spec.second_state.size() == 10);
  for (int32_t g : spec.gradients) CHECK(g == -1);  // internal
  CHECK(spec.tensors[size_t(spec.input)].dims[0] == 64);
  check_written_before_read(spec);
  // The first layer needs no input gradient.
  for (const cae_graph_node& node : spec.nodes) {
    if (node.op == CAE_GRAPH_CONV2D_BACKWARD && node.args[0] == spec.input) CHECK(node.args[3] == -1);
  }
}

TEST_CASE("reconstruction and encoder graphs bind what the host reads") {
  const Network network = small_network();
  const GraphSpec reconstruction = build_reconstruction_graph(network, 3, true);
  CHECK(reconstruction.tensors[size_t(reconstruction.output)].role == CAE_GRAPH_OUTPUT);
  CHECK(reconstruction.tensors[size_t(reconstruction.loss)].role == CAE_GRAPH_OUTPUT);
  CHECK(count_op(reconstruction, CAE_GRAPH_MSE_LOSS) == 1);
  check_written_before_read(reconstruction);
  const GraphSpec encoder = build_encoder_graph(network, 3);
  const cae_graph_tensor& latent = encoder.tensors[size_t(encoder.output)];
  CHECK(latent.dims[1] == network.latent_channels());
  CHECK(latent.dims[2] == network.latent_size());
  CHECK(encoder.parameters.size() == 4);  // the encoder's layers only
  check_written_before_read(encoder);
}

// One Adam step, the test reconstruction and the latent, run op by op and as
// graphs on the cpu backend: the interpreter calls the same members in the
// same order, so every number is the same bit for bit.
TEST_CASE("graphs on the cpu backend give the op path's results bit for bit") {
  const Network network = small_network();
  const Parameters initial = Parameters::he_normal(network, 5);
  Context context(test::cpu_table());
  const int64_t batch = 3;
  struct Result {
    std::vector<float> weights, reconstruction, latent, optimizer;
    float loss = 0, mse = 0;
  };
  auto run = [&](Execution execution) {
    Autoencoder model(context, initial, execution);
    OptimizerSettings settings;
    settings.weight_decay = 1e-3f;
    Optimizer optimizer(context, model.parameters(), model.parameter_names(), settings);
    Tensor input = context.alloc(network.image_dims(batch));
    std::vector<float> host(size_t(batch * network.image_floats()));
    for (size_t i = 0; i < host.size(); ++i) host[i] = float((i * 37) % 101) / 100.0f;
    input.upload(host);
    Tensor loss = context.alloc({1});
    if (!model.train_step(input, loss, nullptr, optimizer)) {
      model.forward_backward(input, loss, nullptr);
      optimizer.step(model.parameters(), model.gradients());
    }
    CHECK(model.trained_with_graphs() == (execution == Execution::Graph));
    Result r;
    r.loss = loss.download()[0];
    r.weights = model.download_parameters().flatten();
    for (const HostTensor& t : optimizer.export_state()) {
      r.optimizer.insert(r.optimizer.end(), t.data.begin(), t.data.end());
    }
    Tensor output = context.alloc(network.image_dims(batch));
    model.reconstruct(input, output, &loss);
    r.reconstruction = output.download();
    r.mse = loss.download()[0];
    Tensor latent = context.alloc({batch, network.latent_channels(), network.latent_size(),
                                   network.latent_size()});
    model.encode(input, latent);
    r.latent = latent.download();
    return r;
  };
  const Result ops = run(Execution::Ops);
  const Result graph = run(Execution::Graph);
  CHECK(ops.loss == graph.loss);
  CHECK(ops.weights == graph.weights);
  CHECK(ops.optimizer == graph.optimizer);
  CHECK(ops.reconstruction == graph.reconstruction);
  CHECK(ops.mse == graph.mse);
  CHECK(ops.latent == graph.latent);
}

TEST_CASE("a graph compiled for one batch refuses tensors of another") {
  const Network network = small_network();
  Context context(test::cpu_table());
  const GraphSpec spec = build_encoder_graph(network, 4);
  std::unique_ptr<CompiledGraph> graph = CompiledGraph::compile(context, spec.tensors, spec.nodes);
  REQUIRE(graph != nullptr);
  const Parameters parameters = Parameters::he_normal(network, 1);
  Autoencoder model(context, parameters, Execution::Ops);
  Tensor input = context.alloc(network.image_dims(2));
  input.upload(std::vector<float>(size_t(input.count()), 0.5f));
  Tensor latent = context.alloc({2, network.latent_channels(), network.latent_size(),
                                 network.latent_size()});
  std::vector<cae_tensor> bound(spec.tensors.size(), nullptr);
  bound[size_t(spec.input)] = input.handle();
  bound[size_t(spec.output)] = latent.handle();
  for (size_t p = 0; p < spec.parameters.size(); ++p) {
    bound[size_t(spec.parameters[p])] = model.parameters()[p].handle();
  }
  CHECK_THROWS_WITH_AS(graph->run(bound), doctest::Contains("but the graph was compiled for [4,"),
                       BackendError);
}

TEST_CASE("the interpreter refuses a description that breaks the contracts, naming why") {
  const Network network = small_network();
  Context context(test::cpu_table());
  TrainingGraphOptions options;
  options.update.kind = GraphUpdate::Kind::Sgd;
  const GraphSpec good = build_training_graph(network, 2, options);
  CHECK(CompiledGraph::compile(context, good.tensors, good.nodes) != nullptr);
  auto refused = [&](GraphSpec spec, const std::string& why) {
    INFO(why);
    CHECK_THROWS_WITH_AS(CompiledGraph::compile(context, spec.tensors, spec.nodes),
                         doctest::Contains(why.c_str()), BackendError);
  };
  GraphSpec s = good;
  s.nodes[0].op = 99;
  refused(s, "graph node 0: unknown op 99");
  s = good;
  s.nodes[0].args[0] = int32_t(s.tensors.size());
  refused(s, "names tensor");
  s = good;
  s.nodes[1].fuse_relu = 1;  // a max-pool
  refused(s, "fuse_relu must be 0 for this op");
  s = good;
  s.tensors[size_t(s.input)].dims[0] = 3;  // the input of another batch than the graph
  refused(s, "graph node 0 (conv2d_forward)");
  s = good;
  std::swap(s.nodes[0], s.nodes[1]);  // the pool reads the convolution's output first
  refused(s, "reads internal tensor");
  s = good;
  s.nodes.back().args[0] = s.input;  // an update of the input
  refused(s, "an input");
  s = good;
  s.nodes[0].args[1] = s.nodes[0].args[2];  // the bias as the weight: shapes
  refused(s, "graph node 0 (conv2d_forward)");
  s = good;
  s.tensors.push_back(s.tensors[size_t(s.loss)]);  // an output no node writes
  refused(s, "an output that no node writes");
  s = good;
  s.nodes.back().weight_decay = std::nanf("");
  refused(s, "not finite");
  s = good;
  for (cae_graph_node& node : s.nodes) {
    if (node.op == CAE_GRAPH_CONV2D_BACKWARD) node.args[5] = node.args[4];  // db into dw
  }
  refused(s, "are the same tensor");
}

TEST_CASE("a step with the gradient exchange inside: its nodes, and what the interpreter refuses") {
  const Network network = small_network();
  auto contexts = test::make_contexts(test::cpu_table(), 2);
  cae_context handles[2] = {contexts[0]->handle(), contexts[1]->handle()};
  cae_group group = nullptr;
  REQUIRE(test::cpu_table().group_create(handles, 2, &group) == CAE_STATUS_OK);
  TrainingGraphOptions options;
  options.update.kind = GraphUpdate::Kind::Sgd;
  options.exchange = {group, 0, 2, 0.5f};
  const GraphSpec good = build_training_graph(network, 2, options);
  // One exchange right after each conv2d_backward, for its dw and db, scaled.
  size_t exchanges = 0;
  for (size_t i = 0; i < good.nodes.size(); ++i) {
    if (good.nodes[i].op != CAE_GRAPH_ALL_REDUCE_SUM) continue;
    ++exchanges;
    CHECK(good.nodes[i].scale == 0.5f);
    const size_t after = good.nodes[i - 1].op == CAE_GRAPH_ALL_REDUCE_SUM ? i - 2 : i - 1;
    REQUIRE(good.nodes[after].op == CAE_GRAPH_CONV2D_BACKWARD);
    CHECK((good.nodes[i].args[0] == good.nodes[after].args[4] ||
           good.nodes[i].args[0] == good.nodes[after].args[5]));
  }
  CHECK(exchanges == 2 * network.layers().size());
  CHECK(good.group == group);
  const GraphGroup named{group, 0, 2};
  CHECK(CompiledGraph::compile(*contexts[0], good.tensors, good.nodes, named) != nullptr);
  auto refused = [&](GraphSpec spec, const GraphGroup& g, const std::string& why) {
    INFO(why);
    CHECK_THROWS_WITH_AS(CompiledGraph::compile(*contexts[0], spec.tensors, spec.nodes, g),
                         doctest::Contains(why.c_str()), BackendError);
  };
  refused(good, GraphGroup{}, "names no group");
  refused(good, GraphGroup{group, 2, 2}, "is not a member");
  GraphSpec s = good;
  for (size_t i = 0; i < s.nodes.size(); ++i) {  // the first exchange before its gradient's node
    if (s.nodes[i].op == CAE_GRAPH_ALL_REDUCE_SUM) {
      std::swap(s.nodes[i], s.nodes[i - 1]);
      break;
    }
  }
  refused(s, named, "before any node writes it");
  s = good;
  for (cae_graph_node& node : s.nodes) {
    if (node.op == CAE_GRAPH_ALL_REDUCE_SUM) {
      node.args[0] = s.parameters[0];  // a parameter, outside an optimiser
      break;
    }
  }
  refused(s, named, "a parameter");
  // An ABI 1.5 backend is never sent the op it does not know.
  cae_backend_table as_1_5 = test::cpu_table();
  as_1_5.abi_minor = 5;
  Context old(as_1_5);
  CHECK(CompiledGraph::compile(old, good.tensors, good.nodes, named) == nullptr);
  test::cpu_table().group_destroy(group);
}

}  // namespace cae::nn
