#include "graph_description.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "op_shapes.hpp"

namespace cae_plugin {
namespace {

struct OpInfo {
  const char* name;
  int args;
  unsigned optional_mask;  // bit i: argument i may be -1
  unsigned written_mask;   // bit i: argument i is written
};

// Indexed by cae_graph_op; the masks follow the argument lists in backend.h.
const OpInfo kOps[] = {
    {"conv2d_forward", 4, 0u, 1u << 3},
    {"conv2d_backward", 6, 1u << 3, (1u << 3) | (1u << 4) | (1u << 5)},
    {"relu_forward", 2, 0u, 1u << 1},
    {"relu_backward", 3, 0u, 1u << 2},
    {"maxpool2x2_forward", 2, 0u, 1u << 1},
    {"maxpool2x2_backward", 3, 0u, 1u << 2},
    {"upsample2x_forward", 2, 0u, 1u << 1},
    {"upsample2x_backward", 2, 0u, 1u << 1},
    {"mse_loss", 4, 1u << 3, (1u << 2) | (1u << 3)},
    {"sgd_step", 3, 1u << 2, (1u << 0) | (1u << 2)},
    {"adam_step", 4, 0u, (1u << 0) | (1u << 2) | (1u << 3)},
    {"all_reduce_sum", 1, 0u, 1u << 0},
};
constexpr int kOpCount = int(sizeof kOps / sizeof kOps[0]);

const OpInfo* op_info(int32_t op) { return op >= 0 && op < kOpCount ? &kOps[op] : nullptr; }

bool is_optimiser(int32_t op) { return op == CAE_GRAPH_SGD_STEP || op == CAE_GRAPH_ADAM_STEP; }

// Entries are read at the caller's stride; members beyond it read as zero
// (an older host), members beyond ours are ignored (a newer one).
template <class Entry>
std::vector<Entry> copy_entries(const void* base, int32_t count, uint32_t stride,
                                const char* what) {
  require(count >= 1, std::string("graph: ") + what + " count must be >= 1, got " +
                          std::to_string(count));
  require(base != nullptr, std::string("graph: ") + what + " array is NULL");
  require(stride >= sizeof(int32_t) * 2,
          std::string("graph: ") + what + " stride " + std::to_string(stride) + " is too small");
  std::vector<Entry> entries(static_cast<size_t>(count));
  const size_t n = std::min<size_t>(stride, sizeof(Entry));
  for (int32_t i = 0; i < count; ++i) {
    std::memset(&entries[size_t(i)], 0, sizeof(Entry));
    std::memcpy(&entries[size_t(i)], static_cast<const char*>(base) + size_t(i) * stride, n);
  }
  return entries;
}

std::string node_label(size_t index, int32_t op) {
  return "graph node " + std::to_string(index) + " (" + graph_op_name(op) + ")";
}

void check_tensor(const cae_graph_tensor& t, size_t index) {
  const std::string label = "graph tensor " + std::to_string(index);
  require(t.role >= CAE_GRAPH_INPUT && t.role <= CAE_GRAPH_INTERNAL,
          label + ": unknown role " + std::to_string(t.role));
  try {
    graph_tensor_shape(t);
  } catch (const Error& e) {
    fail(e.status(), label + ": " + e.what());
  }
}

// Who may write what: the host's tensors are read-only except outputs and
// what an optimiser updates in place (its param and its state).
void check_write(const GraphDescription& g, size_t node, int arg, int32_t index) {
  const cae_graph_node& n = g.nodes[node];
  const int32_t role = g.tensors[size_t(index)].role;
  const std::string label = node_label(node, n.op);
  require(role != CAE_GRAPH_INPUT,
          label + ": writes tensor " + std::to_string(index) + ", an input");
  if (role == CAE_GRAPH_PARAMETER || role == CAE_GRAPH_OPTIMIZER_STATE) {
    require(is_optimiser(n.op) && (arg == 0) == (role == CAE_GRAPH_PARAMETER),
            label + ": writes tensor " + std::to_string(index) +
                (role == CAE_GRAPH_PARAMETER ? ", a parameter" : ", optimiser state") +
                " outside an optimiser update");
  }
}

void check_shapes(const GraphDescription& g, const cae_graph_node& n) {
  auto s = [&](int arg) { return graph_tensor_shape(g.tensors[size_t(n.args[arg])]); };
  switch (n.op) {
    case CAE_GRAPH_CONV2D_FORWARD:
      check_conv2d_forward(s(0), s(1), s(2), s(3), n.fuse_relu);
      break;
    case CAE_GRAPH_CONV2D_BACKWARD: {
      Shape dx;
      if (n.args[3] >= 0) dx = s(3);
      check_conv2d_backward(s(0), s(1), s(2), n.args[3] >= 0 ? &dx : nullptr, s(4), s(5));
      break;
    }
    case CAE_GRAPH_RELU_FORWARD:
      check_same_shape("relu_forward", "y", s(1), "x", s(0));
      break;
    case CAE_GRAPH_RELU_BACKWARD:
      check_same_shape("relu_backward", "dy", s(1), "y", s(0));
      check_same_shape("relu_backward", "dx", s(2), "y", s(0));
      break;
    case CAE_GRAPH_MAXPOOL2X2_FORWARD:
      check_pool2x2("maxpool2x2_forward", s(0), s(1));
      break;
    case CAE_GRAPH_MAXPOOL2X2_BACKWARD:
      check_pool2x2("maxpool2x2_backward", s(0), s(1));
      check_same_shape("maxpool2x2_backward", "dx", s(2), "x", s(0));
      break;
    case CAE_GRAPH_UPSAMPLE2X_FORWARD:
      check_upsample2x("upsample2x_forward", s(0), s(1));
      break;
    case CAE_GRAPH_UPSAMPLE2X_BACKWARD:
      check_upsample2x("upsample2x_backward", s(1), s(0));
      break;
    case CAE_GRAPH_MSE_LOSS: {
      Shape grad;
      if (n.args[3] >= 0) grad = s(3);
      check_mse(s(0), s(1), s(2), n.args[3] >= 0 ? &grad : nullptr);
      break;
    }
    case CAE_GRAPH_SGD_STEP: {
      Shape velocity;
      if (n.args[2] >= 0) velocity = s(2);
      // The learning rate comes with each run; any valid one checks the rest.
      check_sgd(s(0), s(1), n.args[2] >= 0 ? &velocity : nullptr, 0.0f, n.momentum,
                n.weight_decay);
      break;
    }
    case CAE_GRAPH_ADAM_STEP: {
      const cae_adam_params p{0.0f, n.beta1, n.beta2, n.epsilon, n.weight_decay, 1};
      check_adam(s(0), s(1), s(2), s(3), &p);
      break;
    }
    default:
      break;
  }
}

void check_node(GraphDescription& g, size_t index, std::vector<bool>& written) {
  cae_graph_node& n = g.nodes[index];
  const OpInfo* info = op_info(n.op);
  require(info != nullptr,
          "graph node " + std::to_string(index) + ": unknown op " + std::to_string(n.op));
  const std::string label = node_label(index, n.op);
  const int32_t count = int32_t(g.tensors.size());
  require(n.fuse_relu == 0 || (n.op == CAE_GRAPH_CONV2D_FORWARD && n.fuse_relu == 1),
          label + ": fuse_relu must be 0" +
              (n.op == CAE_GRAPH_CONV2D_FORWARD ? " or 1" : std::string(" for this op")));
  for (float value : {n.beta1, n.beta2, n.epsilon, n.weight_decay, n.momentum, n.scale}) {
    require(std::isfinite(value), label + ": an attribute is not finite");
  }
  for (int a = 0; a < CAE_GRAPH_MAX_ARGS; ++a) {
    const int32_t t = n.args[a];
    if (a >= info->args) {
      require(t == -1, label + ": argument " + std::to_string(a) + " must be -1 (the op takes " +
                           std::to_string(info->args) + ")");
      continue;
    }
    if (t == -1) {
      require(graph_arg_optional(n.op, a),
              label + ": argument " + std::to_string(a) + " is required");
      continue;
    }
    require(t >= 0 && t < count, label + ": argument " + std::to_string(a) + " names tensor " +
                                     std::to_string(t) + " of " + std::to_string(count));
  }
  // The exchange reads its tensor too, and only once it is final: some
  // earlier node must have written it (whatever its role).
  if (n.op == CAE_GRAPH_ALL_REDUCE_SUM) {
    check_write(g, index, 0, n.args[0]);  // never an input, a parameter or state
    require(written[size_t(n.args[0])], label + ": exchanges tensor " +
                                            std::to_string(n.args[0]) +
                                            " before any node writes it");
  }
  // Reads first: an internal tensor must have been written by an earlier node.
  for (int a = 0; a < info->args; ++a) {
    const int32_t t = n.args[a];
    if (t < 0 || graph_arg_written(n.op, a)) continue;
    require(g.tensors[size_t(t)].role != CAE_GRAPH_INTERNAL || written[size_t(t)],
            label + ": reads internal tensor " + std::to_string(t) + " before any node writes it");
  }
  for (int a = 0; a < info->args; ++a) {
    const int32_t t = n.args[a];
    if (t < 0 || !graph_arg_written(n.op, a)) continue;
    check_write(g, index, a, t);
    written[size_t(t)] = true;
  }
  // The same tensor twice: only relu in place (output = its input).
  for (int a = 0; a < info->args; ++a) {
    for (int b = a + 1; b < info->args; ++b) {
      if (n.args[a] < 0 || n.args[a] != n.args[b]) continue;
      const bool in_place = (n.op == CAE_GRAPH_RELU_FORWARD && a == 0 && b == 1) ||
                            (n.op == CAE_GRAPH_RELU_BACKWARD && a == 1 && b == 2);
      require(in_place, label + ": arguments " + std::to_string(a) + " and " + std::to_string(b) +
                            " are the same tensor, which this op does not allow");
    }
  }
  try {
    check_shapes(g, n);
  } catch (const Error& e) {
    fail(e.status(), label + ": " + e.what());
  }
}

}  // namespace

const char* graph_op_name(int32_t op) {
  const OpInfo* info = op_info(op);
  return info ? info->name : "?";
}

int graph_op_arg_count(int32_t op) {
  const OpInfo* info = op_info(op);
  return info ? info->args : 0;
}

bool graph_arg_optional(int32_t op, int arg) {
  const OpInfo* info = op_info(op);
  return info && arg >= 0 && arg < 32 && (info->optional_mask >> arg & 1u);
}

bool graph_arg_written(int32_t op, int arg) {
  const OpInfo* info = op_info(op);
  return info && arg >= 0 && arg < 32 && (info->written_mask >> arg & 1u);
}

bool graph_exchanges(const GraphDescription& graph) {
  for (const cae_graph_node& n : graph.nodes) {
    if (n.op == CAE_GRAPH_ALL_REDUCE_SUM) return true;
  }
  return false;
}

bool describes_exchanges(const cae_graph_desc* desc) {
  if (desc == nullptr || desc->nodes == nullptr || desc->node_stride < sizeof(int32_t)) return false;
  for (int32_t i = 0; i < desc->node_count; ++i) {
    int32_t op = 0;  // a node's first member
    std::memcpy(&op, reinterpret_cast<const char*>(desc->nodes) + size_t(i) * desc->node_stride,
                sizeof op);
    if (op == CAE_GRAPH_ALL_REDUCE_SUM) return true;
  }
  return false;
}

Shape graph_tensor_shape(const cae_graph_tensor& tensor) {
  return make_shape(tensor.ndim, tensor.dims);
}

GraphDescription read_graph_description(const cae_graph_desc* desc) {
  require(desc != nullptr, "graph_compile: description is NULL");
  // ABI 1.5's description ends where 1.6's group begins.
  constexpr size_t kSize15 = offsetof(cae_graph_desc, group);
  constexpr size_t kSize16 = offsetof(cae_graph_desc, group_members) + sizeof(int32_t);
  require(desc->struct_size >= kSize15,
          "graph_compile: description struct_size " + std::to_string(desc->struct_size) +
              " is smaller than the " + std::to_string(kSize15) + " bytes of ABI 1.5");
  GraphDescription g;
  if (desc->struct_size >= kSize16) {
    g.group = desc->group;
    g.group_member = desc->group_member;
    g.group_members = desc->group_members;
  }
  g.tensors = copy_entries<cae_graph_tensor>(desc->tensors, desc->tensor_count,
                                             desc->tensor_stride, "tensor");
  g.nodes = copy_entries<cae_graph_node>(desc->nodes, desc->node_count, desc->node_stride, "node");
  for (size_t i = 0; i < g.tensors.size(); ++i) check_tensor(g.tensors[i], i);
  std::vector<bool> written(g.tensors.size(), false);
  for (size_t i = 0; i < g.nodes.size(); ++i) check_node(g, i, written);
  for (size_t i = 0; i < g.tensors.size(); ++i) {
    require(g.tensors[i].role != CAE_GRAPH_OUTPUT || written[i],
            "graph tensor " + std::to_string(i) + " is an output that no node writes");
  }
  if (graph_exchanges(g)) {
    require(g.group != nullptr, "graph_compile: the graph exchanges tensors (all_reduce_sum "
                                "nodes) but names no group");
    require(g.group_members >= 1 && g.group_member >= 0 && g.group_member < g.group_members,
            "graph_compile: group member " + std::to_string(g.group_member) + " of " +
                std::to_string(g.group_members) + " is not a member");
  }
  return g;
}

}  // namespace cae_plugin
