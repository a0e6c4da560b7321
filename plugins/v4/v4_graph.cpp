// v4's graphs: the node sequence captured once as a CUDA graph and replayed.
//
// A graph's first run goes node by node through v4's own op members (the
// interpreter's walk), which sizes everything the nodes use: scratch areas,
// cached BF16 copies, prepared weight forms, cuBLASLt plans, the side stream,
// the kernels' shared-memory opt-ins. The next run records the same walk on
// the context's stream (cudaStreamBeginCapture, thread-local mode: any call
// of this thread that could synchronise or allocate fails the capture instead
// of running) and instantiates it; from then on a run is one cudaGraphLaunch,
// with no host work per node.
//
// A replay runs exactly the work recorded, on the addresses recorded, with the
// kernel arguments recorded. What could make that wrong, and how it is kept
// away:
//   - memory the recording points at must not move or be freed by anyone
//     else. The graph owns it: its own scratch areas and cache of BF16 copies
//     (traded into the context while its nodes run), and a stand-in tensor
//     ("proxy") for each bound tensor, which owns what ops derive from that
//     tensor (prepared weights, pool choices). No op outside the graph can
//     grow, evict or free any of them;
//   - the bound tensors may differ from run to run (the host's loss tensor
//     rotates). Inputs and outputs therefore run on graph-owned copies: the
//     bindings are copied in before and out after each run (device to
//     device). Parameters and optimiser state run in place; when one of them
//     is another allocation than at the capture, the run captures again;
//   - per-run scalars: the learning rate and Adam's bias corrections. The
//     update kernels read them from device memory that a small kernel writes
//     before each run (v4_graph_scalars.cu, AdamTensor::run_scalars), never
//     from their recorded arguments. The checks the op members make of these
//     values are made on every run, replay or not;
//   - derived buffers tagged with versions (runtime_tensor.hpp): a recording
//     that skipped a conversion because its copy was current would replay
//     the stale copy. Every tensor of the graph gets a new version before
//     each walk, so the walk, recorded or not, derives everything again from
//     the bound tensors' contents; after each run the bound tensors the graph
//     wrote get new versions, so the op path re-derives too;
//   - work queued before the graph (deferred_work.hpp) is issued before the
//     capture begins, and the graph's own queued work before it ends;
//   - shapes are fixed at compile and checked on every run (another batch is
//     another graph);
//   - a graph that exchanges gradients (all_reduce_sum nodes, one graph per
//     member of a group, each run on its own thread) queues its exchanges on
//     the device with the rest: recorded, they overlap the backward pass
//     (v4_graph_exchanges.hpp). The first run, node by node, exchanges
//     through the interpreter's meeting of the members instead; and before
//     a run queues a recorded graph, every member meets (meet_exchanges), so
//     no member's device waits in an exchange for a member whose run failed
//     on the host.
// A capture that fails is an error of that run, naming the node, never a
// silent fall-back; the option graph-capture=off runs graphs node by node.
#include "v4_graph.hpp"

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "op_shapes.hpp"
#include "runtime_entry.hpp"
#include "runtime_ops.hpp"
#include "v4_graph_exchanges.hpp"
#include "v4_graph_fusion.hpp"
#include "v4_graph_scalars.hpp"

namespace cae_v4 {
namespace {

using cae_cuda::Context;
using cae_plugin::GraphDescription;
using cae_plugin::GraphRun;

// Node-by-node runs before the capture: one sizes every workspace.
constexpr int kRunsBeforeCapture = 1;
// Learning rate and Adam's two bias corrections (SGD: the rate, then zeros).
constexpr int kScalarsPerUpdate = 3;
// Geometries of BF16 copies and im2col matrices one graph may keep at once.
constexpr size_t kGraphCacheSlots = 64;

const char* const kCaptureHint =
    " (--backend-option graph-capture=off runs v4's graphs node by node)";

bool copied_in_and_out(int32_t role) {
  return role == CAE_GRAPH_INPUT || role == CAE_GRAPH_OUTPUT;
}

// Which tensors some node writes (*written), and which outputs some node reads
// before any node writes them: their bound contents must be copied in as well.
std::vector<bool> outputs_read_first(const GraphDescription& d, std::vector<bool>* written_out) {
  std::vector<bool> written(d.tensors.size(), false), read_first(d.tensors.size(), false);
  for (const cae_graph_node& n : d.nodes) {
    const int args = cae_plugin::graph_op_arg_count(n.op);
    for (int a = 0; a < args; ++a) {
      const int32_t t = n.args[a];
      if (t >= 0 && !cae_plugin::graph_arg_written(n.op, a) && !written[size_t(t)]) {
        read_first[size_t(t)] = true;
      }
    }
    for (int a = 0; a < args; ++a) {
      if (n.args[a] >= 0 && cae_plugin::graph_arg_written(n.op, a)) written[size_t(n.args[a])] = true;
    }
  }
  for (size_t i = 0; i < d.tensors.size(); ++i) {
    read_first[i] = read_first[i] && d.tensors[i].role == CAE_GRAPH_OUTPUT;
  }
  *written_out = std::move(written);
  return read_first;
}

// Trades the context's scratch areas and cache with the graph's for its
// lifetime: the nodes' temporaries live in memory the graph owns.
class GraphWorkspace {
 public:
  GraphWorkspace(Context& ctx, cae_cuda::Scratch& scratch, cae_cuda::Scratch& reduction_area,
                 cae_cuda::ColumnCache& columns)
      : ctx_(ctx), scratch_(scratch), reduction_area_(reduction_area), columns_(columns) {
    exchange();
  }
  ~GraphWorkspace() { exchange(); }
  GraphWorkspace(const GraphWorkspace&) = delete;
  GraphWorkspace& operator=(const GraphWorkspace&) = delete;

 private:
  void exchange() noexcept {
    ctx_.scratch.exchange(scratch_);
    ctx_.reduction_area.exchange(reduction_area_);
    ctx_.columns.exchange(columns_);
  }
  Context& ctx_;
  cae_cuda::Scratch& scratch_;
  cae_cuda::Scratch& reduction_area_;
  cae_cuda::ColumnCache& columns_;
};

// The proxies are tensors of the context while the nodes run (the op members
// check every handle), and only then.
class RegisteredProxies {
 public:
  RegisteredProxies(Context& ctx, const std::vector<std::unique_ptr<cae_tensor_s>>& proxies)
      : ctx_(ctx) {
    try {
      for (const auto& p : proxies) {
        if (p && ctx_.tensors.insert(p.get()).second) added_.push_back(p.get());
      }
    } catch (...) {
      release();
      throw;
    }
  }
  ~RegisteredProxies() { release(); }
  RegisteredProxies(const RegisteredProxies&) = delete;
  RegisteredProxies& operator=(const RegisteredProxies&) = delete;

 private:
  void release() noexcept {
    for (cae_tensor_s* p : added_) ctx_.tensors.erase(p);
    added_.clear();
  }
  Context& ctx_;
  std::vector<cae_tensor_s*> added_;
};

// Sets ctx.run_scalars for one node, and clears it whatever happens.
class NodeScalars {
 public:
  NodeScalars(Context& ctx, const float* scalars) : ctx_(ctx) { ctx_.run_scalars = scalars; }
  ~NodeScalars() { ctx_.run_scalars = nullptr; }
  NodeScalars(const NodeScalars&) = delete;
  NodeScalars& operator=(const NodeScalars&) = delete;

 private:
  Context& ctx_;
};

class CapturedGraph final : public cae_plugin::GraphExtension {
 public:
  CapturedGraph(Context& ctx, cae_graph graph);
  ~CapturedGraph() override;
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  void run(const GraphRun& run);

 private:
  void check_updates(const GraphRun& run) const;
  void write_scalars(const GraphRun& run);
  void attach(const GraphRun& run);
  void copy_in(const GraphRun& run);
  void copy_out(const GraphRun& run);
  // overlapped: the exchanges on their own stream (recorded walks), else
  // through the interpreter's meeting (the first run).
  void walk(const GraphRun& run, bool overlapped);
  // The fused kernel at node n's place (v4_graph_fusion.hpp); a failure names the node.
  void run_fused(size_t n, const std::vector<cae_tensor>& tensors);
  bool recorded_for(const GraphRun& run) const;
  void capture(const GraphRun& run);
  void drop_capture() noexcept;

  Context& ctx_;
  cae_graph graph_;
  const GraphDescription& description_;
  // Per graph tensor: the stand-in the nodes use for a bound tensor (NULL for
  // internal ones), and for inputs and outputs the memory it owns.
  std::vector<std::unique_ptr<cae_tensor_s>> proxies_;
  std::vector<cae_cuda::DeviceMemory> copies_;
  std::vector<bool> copy_output_in_;
  std::vector<bool> written_;  // per graph tensor: some node writes it
  cae_cuda::Scratch scratch_, reduction_area_;
  cae_cuda::ColumnCache columns_;
  // Per node: its slot of kScalarsPerUpdate floats in run_scalars_, or -1.
  std::vector<int> update_slot_;
  std::vector<float> host_scalars_;
  cae_cuda::DeviceMemory run_scalars_;
  OverlappedExchanges exchanges_;
  GraphFusions fusions_;
  int runs_ = 0;
  cudaGraphExec_t exec_ = nullptr;
  // Per graph tensor: the memory of the bound tensor it ran in place on when
  // the capture was made (parameters and optimiser state; NULL otherwise).
  std::vector<const float*> recorded_;
};

CapturedGraph::CapturedGraph(Context& ctx, cae_graph graph)
    : ctx_(ctx),
      graph_(graph),
      description_(cae_plugin::graph_description(graph)),
      scratch_(ctx.memory, ctx.stream, ctx.tuning.poison_scratch),
      reduction_area_(ctx.memory, ctx.stream, ctx.tuning.poison_scratch),
      columns_(ctx.memory, cae_cuda::kColumnCacheBytes, kGraphCacheSlots),
      exchanges_(ctx, description_),
      fusions_(ctx, description_, ctx.tuning.graph_fusion) {
  const size_t count = description_.tensors.size();
  proxies_.resize(count);
  copies_.resize(count);
  recorded_.assign(count, nullptr);
  copy_output_in_ = outputs_read_first(description_, &written_);
  for (size_t i = 0; i < count; ++i) {
    const cae_graph_tensor& t = description_.tensors[i];
    if (t.role == CAE_GRAPH_INTERNAL) continue;
    auto proxy = std::make_unique<cae_tensor_s>();
    proxy->shape = cae_plugin::graph_tensor_shape(t);
    proxy->bytes = size_t(proxy->shape.count()) * sizeof(float);
    if (copied_in_and_out(t.role)) {
      copies_[i] = cae_cuda::DeviceMemory(proxy->bytes, ctx.memory, "a graph's copy of a bound tensor");
      proxy->data = copies_[i].as();
    }
    proxies_[i] = std::move(proxy);
  }
  int slots = 0;
  for (const cae_graph_node& n : description_.nodes) {
    update_slot_.push_back(cae_plugin::graph_node_updates(n) ? slots++ : -1);
  }
  if (slots > 0) {
    host_scalars_.assign(size_t(slots) * kScalarsPerUpdate, 0.0f);
    run_scalars_ = cae_cuda::DeviceMemory(host_scalars_.size() * sizeof(float), ctx.memory,
                                          "a graph's per-run scalars");
  }
}

CapturedGraph::~CapturedGraph() {
  // Queued runs may still use what is freed here.
  cudaSetDevice(ctx_.device);
  cudaStreamSynchronize(ctx_.stream);
  drop_capture();
  for (auto& proxy : proxies_) {
    if (!proxy) continue;
    cae_cuda::release_derived(proxy->pool_choice, ctx_.memory);
    cae_cuda::release_derived(proxy->prepared_weights, ctx_.memory);
  }
}

void CapturedGraph::drop_capture() noexcept {
  if (exec_) cudaGraphExecDestroy(exec_);
  exec_ = nullptr;
  recorded_.assign(recorded_.size(), nullptr);
}

// The op members check a run's learning rate and step; a replay calls none of
// them, so every run makes the same checks here.
void CapturedGraph::check_updates(const GraphRun& run) const {
  for (size_t index = 0; index < description_.nodes.size(); ++index) {
    const cae_graph_node& n = description_.nodes[index];
    if (update_slot_[index] < 0) continue;
    auto shape = [&](int arg) {
      return cae_plugin::graph_tensor_shape(description_.tensors[size_t(n.args[arg])]);
    };
    try {
      if (n.op == CAE_GRAPH_ADAM_STEP) {
        const cae_adam_params p{run.scalars.learning_rate, n.beta1,        n.beta2,
                                n.epsilon,                 n.weight_decay, run.scalars.adam_step};
        cae_plugin::check_adam(shape(0), shape(1), shape(2), shape(3), &p);
      } else {
        cae_plugin::Shape velocity;
        if (n.args[2] >= 0) velocity = shape(2);
        cae_plugin::check_sgd(shape(0), shape(1), n.args[2] >= 0 ? &velocity : nullptr,
                              run.scalars.learning_rate, n.momentum, n.weight_decay);
      }
    } catch (const cae_plugin::Error& e) {
      cae_plugin::fail(e.status(), "graph node " + std::to_string(index) + " (" +
                                       cae_plugin::graph_op_name(n.op) + "): " + e.what());
    }
  }
}

void CapturedGraph::write_scalars(const GraphRun& run) {
  if (host_scalars_.empty()) return;
  for (size_t index = 0; index < description_.nodes.size(); ++index) {
    const int slot = update_slot_[index];
    if (slot < 0) continue;
    const cae_graph_node& n = description_.nodes[index];
    float* s = host_scalars_.data() + size_t(slot) * kScalarsPerUpdate;
    s[0] = run.scalars.learning_rate;
    const bool adam = n.op == CAE_GRAPH_ADAM_STEP;
    s[1] = adam ? cae_cuda::adam_bias_correction(n.beta1, run.scalars.adam_step) : 0.0f;
    s[2] = adam ? cae_cuda::adam_bias_correction(n.beta2, run.scalars.adam_step) : 0.0f;
  }
  write_run_scalars(ctx_, run_scalars_.as(), host_scalars_);
}

// Parameters and optimiser state run in place: their proxies take the bound
// tensors' memory.
void CapturedGraph::attach(const GraphRun& run) {
  for (size_t i = 0; i < proxies_.size(); ++i) {
    if (proxies_[i] && !copied_in_and_out(description_.tensors[i].role)) {
      proxies_[i]->data = run.tensors[i]->data;
    }
  }
}

void CapturedGraph::copy_in(const GraphRun& run) {
  for (size_t i = 0; i < proxies_.size(); ++i) {
    const int32_t role = description_.tensors[i].role;
    if (role != CAE_GRAPH_INPUT && !copy_output_in_[i]) continue;
    CAE_CUDA_CHECK(cudaMemcpyAsync(proxies_[i]->data, run.tensors[i]->data, proxies_[i]->bytes,
                                   cudaMemcpyDeviceToDevice, ctx_.stream));
  }
}

void CapturedGraph::copy_out(const GraphRun& run) {
  for (size_t i = 0; i < proxies_.size(); ++i) {
    if (description_.tensors[i].role != CAE_GRAPH_OUTPUT) continue;
    CAE_CUDA_CHECK(cudaMemcpyAsync(run.tensors[i]->data, proxies_[i]->data, proxies_[i]->bytes,
                                   cudaMemcpyDeviceToDevice, ctx_.stream));
  }
}

// The interpreter's walk on the proxies and internal tensors, in the graph's
// workspace, ending with the work the nodes left queued.
void CapturedGraph::walk(const GraphRun& run, bool overlapped) {
  std::vector<cae_tensor> tensors = run.tensors;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (proxies_[i]) tensors[i] = proxies_[i].get();
  }
  const RegisteredProxies registered(ctx_, proxies_);
  const GraphWorkspace workspace(ctx_, scratch_, reduction_area_, columns_);
  try {
    // Nothing derived before this walk is taken as current (see the top).
    for (cae_tensor t : tensors) ctx_.wrote(t);
    if (overlapped) exchanges_.restart();
    for (size_t n = 0; n < description_.nodes.size(); ++n) {
      const cae_graph_node& node = description_.nodes[n];
      if (overlapped && node.op == CAE_GRAPH_ALL_REDUCE_SUM) {
        exchanges_.start(n, tensors[size_t(node.args[0])]);
        continue;
      }
      if (overlapped) exchanges_.before(n, tensors);
      if (fusions_.skips(n)) continue;
      if (fusions_.replaces(n)) {
        run_fused(n, tensors);
        continue;
      }
      const int slot = update_slot_[n];
      const NodeScalars scalars(
          ctx_, slot < 0 ? nullptr : run_scalars_.as() + size_t(slot) * kScalarsPerUpdate);
      cae_plugin::run_graph_node(graph_, n, tensors, run.scalars);
    }
    cae_cuda::flush_deferred(ctx_);
    if (overlapped) exchanges_.join();
  } catch (...) {
    ctx_.deferred = cae_cuda::Deferred{};  // it named this run's proxies: this run failed
    throw;
  }
}

void CapturedGraph::run_fused(size_t n, const std::vector<cae_tensor>& tensors) {
  try {
    fusions_.run(n, ctx_, tensors);
  } catch (const cae_plugin::Error& e) {
    cae_plugin::fail(e.status(), "graph node " + std::to_string(n) + " (" +
                                     cae_plugin::graph_op_name(description_.nodes[n].op) +
                                     ", " + fusions_.describe(n) + "): " + e.what());
  }
}

bool CapturedGraph::recorded_for(const GraphRun& run) const {
  for (size_t i = 0; i < proxies_.size(); ++i) {
    if (proxies_[i] && !copied_in_and_out(description_.tensors[i].role) &&
        recorded_[i] != run.tensors[i]->data) {
      return false;
    }
  }
  return true;
}

void CapturedGraph::capture(const GraphRun& run) {
  drop_capture();
  CAE_CUDA_CHECK(cudaStreamBeginCapture(ctx_.stream, cudaStreamCaptureModeThreadLocal));
  auto abandon = [&] {
    cudaGraph_t partial = nullptr;
    cudaStreamEndCapture(ctx_.stream, &partial);
    if (partial) cudaGraphDestroy(partial);
    (void)cudaGetLastError();
  };
  try {
    walk(run, exchanges_.any());
  } catch (const cae_plugin::Error& e) {
    abandon();
    cae_plugin::fail(e.status(), std::string("v4: capturing the graph failed: ") + e.what() +
                                     kCaptureHint);
  } catch (...) {
    abandon();
    throw;
  }
  cudaGraph_t recorded = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(ctx_.stream, &recorded);
  if (ended != cudaSuccess || recorded == nullptr) {
    if (recorded) cudaGraphDestroy(recorded);
    (void)cudaGetLastError();
    cae_plugin::fail(CAE_STATUS_DEVICE_ERROR,
                     std::string("v4: capturing the graph failed: cudaStreamEndCapture: ") +
                         cudaGetErrorString(ended) + kCaptureHint);
  }
  cudaGraphExec_t exec = nullptr;
  const cudaError_t made = cudaGraphInstantiate(&exec, recorded, 0);
  cudaGraphDestroy(recorded);
  if (made != cudaSuccess) {
    (void)cudaGetLastError();
    cae_plugin::fail(CAE_STATUS_DEVICE_ERROR,
                     std::string("v4: instantiating the captured graph failed: ") +
                         cudaGetErrorString(made) + kCaptureHint);
  }
  exec_ = exec;
  for (size_t i = 0; i < proxies_.size(); ++i) {
    recorded_[i] = proxies_[i] && !copied_in_and_out(description_.tensors[i].role)
                       ? run.tensors[i]->data
                       : nullptr;
  }
}

void CapturedGraph::run(const GraphRun& run) {
  check_updates(run);
  cae_cuda::flush_deferred(ctx_);  // work queued before the graph is not the graph's
  attach(run);
  write_scalars(run);
  copy_in(run);
  if (runs_ < kRunsBeforeCapture) {
    walk(run, false);
    ++runs_;
  } else {
    if (exec_ == nullptr || !recorded_for(run)) capture(run);
    if (exchanges_.any()) cae_plugin::meet_exchanges(graph_);
    CAE_CUDA_CHECK(cudaGraphLaunch(exec_, ctx_.stream));
  }
  copy_out(run);
  // What the bound tensors' derived buffers were made from is gone.
  for (size_t i = 0; i < run.tensors.size(); ++i) {
    if (proxies_[i] && written_[i]) ctx_.wrote(run.tensors[i]);
  }
}

}  // namespace

void compile_graph(const cae_plugin::GraphOps& ops, cae_context ctx, const cae_graph_desc* desc,
                   cae_graph* out) {
  Context& c = cae_cuda::enter(ctx, "graph_compile");
  cae_plugin::compile_graph(ops, ctx, desc, out, /*runs_exchanges=*/c.tuning.graph_exchanges);
  if (!c.tuning.graph_capture) return;
  try {
    cae_plugin::set_graph_extension(*out, std::make_unique<CapturedGraph>(c, *out));
  } catch (...) {
    cae_plugin::destroy_graph(ctx, *out);
    *out = nullptr;
    throw;
  }
}

void run_graph(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
               int32_t binding_count, const cae_graph_run_params* params) {
  try {
    cae_cuda::enter(ctx, "graph_run");
    const GraphRun run = cae_plugin::bind_graph(ctx, graph, bindings, binding_count, params);
    auto* captured = static_cast<CapturedGraph*>(cae_plugin::graph_extension(graph));
    if (captured == nullptr) {
      for (size_t n = 0; n < cae_plugin::graph_description(graph).nodes.size(); ++n) {
        cae_plugin::run_graph_node(graph, n, run.tensors, run.scalars);
      }
      return;
    }
    captured->run(run);
  } catch (const std::exception& e) {
    // The other members of its group must not wait for this run.
    cae_plugin::fail_exchanges(ctx, graph, e.what());
    throw;
  }
}

}  // namespace cae_v4
