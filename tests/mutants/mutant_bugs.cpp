// Each mutant really carries its bug: on one small input where the bug shows,
// the mutant's output differs from the cpu backend's exactly as the bug says,
// and the cpu backend gives the header's answer. Without this, a mutant that
// silently did nothing would make conformance.mutants blame the suite; and
// this runs without the suite at all.
#include <cae/backend.h>
#include <dlfcn.h>
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <initializer_list>
#include <csignal>
#include <map>
#include <string>
#include <thread>
#include <vector>
#include "graph_desc.hpp"

namespace {

using Floats = std::vector<float>;
using Dims = std::vector<int64_t>;

const cae_backend_table& load(const std::string& path) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);  // kept open
  INFO(path, ": ", library ? "" : dlerror());
  REQUIRE(library != nullptr);
  auto entry = reinterpret_cast<cae_backend_entry_fn>(dlsym(library, CAE_BACKEND_ENTRY_SYMBOL));
  REQUIRE(bool(entry));
  const cae_backend_table* table = entry(CAE_ABI_MAJOR);
  REQUIRE(table != nullptr);
  return *table;
}

const cae_backend_table& cpu() { return load(CPU_BACKEND); }
const cae_backend_table& mutant(const std::string& id) {
  return load(std::string(MUTANT_DIR) + "/libmutant-" + id + ".so");
}

// One context of one backend, with tensors made from and read into vectors.
class OpenContext {
 public:
  explicit OpenContext(const cae_backend_table& table) : t(table) {
    cae_create_options options{};
    options.struct_size = sizeof options;
    REQUIRE(t.create(&options, &ctx) == CAE_STATUS_OK);
  }
  ~OpenContext() { t.destroy(ctx); }
  OpenContext(const OpenContext&) = delete;
  OpenContext& operator=(const OpenContext&) = delete;

  cae_tensor tensor(const Dims& dims, const Floats& values) {
    cae_tensor out = nullptr;
    REQUIRE(t.tensor_alloc(ctx, int32_t(dims.size()), dims.data(), &out) == CAE_STATUS_OK);
    REQUIRE(t.tensor_upload(ctx, out, values.data(), values.size()) == CAE_STATUS_OK);
    counts_[out] = values.size();
    return out;
  }
  // A tensor of `count` elements, all `value` (an output's old contents).
  cae_tensor filled(const Dims& dims, float value) {
    size_t count = 1;
    for (int64_t d : dims) count *= size_t(d);
    return tensor(dims, Floats(count, value));
  }
  Floats values(cae_tensor x) {
    Floats out(counts_.at(x));
    REQUIRE(t.tensor_download(ctx, x, out.data(), out.size()) == CAE_STATUS_OK);
    return out;
  }
  uint64_t bytes_in_use() {
    uint64_t in_use = 0, peak = 0;
    REQUIRE(t.memory_stats(ctx, &in_use, &peak) == CAE_STATUS_OK);
    return in_use;
  }

  const cae_backend_table& t;
  cae_context ctx = nullptr;

 private:
  std::map<cae_tensor, size_t> counts_;
};

// A 3x3 kernel that passes its input's centre through: conv(x) == x.
Floats identity_kernel() { return {0, 0, 0, 0, 1, 0, 0, 0, 0}; }

Floats conv_forward(const cae_backend_table& t, const Dims& x_dims, const Floats& x) {
  OpenContext s(t);
  Dims y_dims = x_dims;
  cae_tensor y = s.filled(y_dims, 42.0f);
  REQUIRE(t.conv2d_forward(s.ctx, s.tensor(x_dims, x), s.tensor({1, 1, 3, 3}, identity_kernel()),
                           s.tensor({1}, {0.0f}), y, 0) == CAE_STATUS_OK);
  return s.values(y);
}

// dw of a 1-channel conv over images x [N,1,1,1] with gradients dy: its centre tap.
float conv_dw_centre(const cae_backend_table& t, const Floats& x, const Floats& dy) {
  OpenContext s(t);
  const Dims dims = {int64_t(x.size()), 1, 1, 1};
  cae_tensor dw = s.filled({1, 1, 3, 3}, 42.0f), db = s.filled({1}, 42.0f);
  REQUIRE(t.conv2d_backward(s.ctx, s.tensor(dims, x), s.tensor({1, 1, 3, 3}, identity_kernel()),
                            s.tensor(dims, dy), nullptr, dw, db) == CAE_STATUS_OK);
  return s.values(dw)[4];
}

// One Adam step from param 0, m = v = 0, with gradient g: the update.
float adam_update(const cae_backend_table& t, float g) {
  OpenContext s(t);
  cae_tensor p = s.tensor({1}, {0.0f});
  const cae_adam_params hp{0.1f, 0.9f, 0.999f, 1e-8f, 0.0f, 1};
  REQUIRE(t.adam_step(s.ctx, p, s.tensor({1}, {g}), s.tensor({1}, {0.0f}), s.tensor({1}, {0.0f}),
                      &hp) == CAE_STATUS_OK);
  return s.values(p)[0];
}

Floats upsample(const cae_backend_table& t, int64_t images) {
  OpenContext s(t);
  cae_tensor y = s.filled({images, 1, 2, 2}, 42.0f);
  REQUIRE(t.upsample2x_forward(s.ctx, s.filled({images, 1, 1, 1}, 3.0f), y) == CAE_STATUS_OK);
  return s.values(y);
}

Floats maxpool(const cae_backend_table& t, int64_t images) {
  OpenContext s(t);
  cae_tensor y = s.filled({images, 1, 1, 1}, 42.0f);
  REQUIRE(t.maxpool2x2_forward(s.ctx, s.filled({images, 1, 2, 2}, 3.0f), y) == CAE_STATUS_OK);
  return s.values(y);
}

// A run of a graph is bound to its tensors (graph_run's bindings).
cae_graph compile(OpenContext& s, std::vector<cae_graph_tensor> tensors,
                  const cae_graph_node& node) {
  const std::vector<cae_graph_node> nodes = {node};
  const cae_graph_desc desc = describe_graph(tensors, nodes);
  cae_graph graph = nullptr;
  REQUIRE(s.t.graph_compile(s.ctx, &desc, &graph) == CAE_STATUS_OK);
  return graph;
}

cae_graph_tensor graph_tensor(int32_t role, int64_t count) {
  cae_graph_tensor t{};
  t.role = role;
  t.ndim = 1;
  t.dims[0] = count;
  return t;
}

cae_graph_node graph_node(int32_t op, std::initializer_list<int32_t> args) {
  cae_graph_node n{};
  n.op = op;
  for (int32_t& a : n.args) a = -1;
  int i = 0;
  for (int32_t a : args) n.args[i++] = a;
  return n;
}

// relu_forward as a graph, run on (x1, y1) and then on (x2, y2): y2.
Floats relu_graph_second_run(const cae_backend_table& t) {
  OpenContext s(t);
  cae_graph graph = compile(s, {graph_tensor(CAE_GRAPH_INPUT, 2), graph_tensor(CAE_GRAPH_OUTPUT, 2)},
                            graph_node(CAE_GRAPH_RELU_FORWARD, {0, 1}));
  cae_tensor first[2] = {s.tensor({2}, {1.0f, -1.0f}), s.filled({2}, 42.0f)};
  cae_tensor second[2] = {s.tensor({2}, {-2.0f, 2.0f}), s.filled({2}, 42.0f)};
  REQUIRE(t.graph_run(s.ctx, graph, first, 2, nullptr) == CAE_STATUS_OK);
  REQUIRE(t.graph_run(s.ctx, graph, second, 2, nullptr) == CAE_STATUS_OK);
  const Floats y = s.values(second[1]);
  t.graph_destroy(s.ctx, graph);
  return y;
}

// sgd_step (no momentum) as a graph from param 1 with gradient 1, run with
// learning rate 0.5 and then 0.25: the parameter.
float sgd_graph_two_rates(const cae_backend_table& t) {
  OpenContext s(t);
  cae_graph graph =
      compile(s, {graph_tensor(CAE_GRAPH_PARAMETER, 1), graph_tensor(CAE_GRAPH_INPUT, 1)},
              graph_node(CAE_GRAPH_SGD_STEP, {0, 1}));
  cae_tensor bound[2] = {s.tensor({1}, {1.0f}), s.tensor({1}, {1.0f})};
  cae_graph_run_params run{};
  run.struct_size = sizeof run;
  run.learning_rate = 0.5f;
  REQUIRE(t.graph_run(s.ctx, graph, bound, 2, &run) == CAE_STATUS_OK);
  run.learning_rate = 0.25f;
  REQUIRE(t.graph_run(s.ctx, graph, bound, 2, &run) == CAE_STATUS_OK);
  const float param = s.values(bound[0])[0];
  t.graph_destroy(s.ctx, graph);
  return param;
}

// A group of two contexts; each runs y = relu(x), then an exchange of y
// (ABI 1.6), both at once, member 0 with x = {1, -1}, member 1 with {2, 3},
// y first holding 42: member 0's y afterwards.
Floats relu_then_exchange(const cae_backend_table& t) {
  OpenContext members[2] = {OpenContext(t), OpenContext(t)};
  cae_context handles[2] = {members[0].ctx, members[1].ctx};
  cae_group group = nullptr;
  REQUIRE(t.group_create(handles, 2, &group) == CAE_STATUS_OK);
  std::vector<cae_graph_tensor> tensors = {graph_tensor(CAE_GRAPH_INPUT, 2),
                                           graph_tensor(CAE_GRAPH_OUTPUT, 2)};
  std::vector<cae_graph_node> nodes = {graph_node(CAE_GRAPH_RELU_FORWARD, {0, 1}),
                                       graph_node(CAE_GRAPH_ALL_REDUCE_SUM, {1})};
  nodes[1].scale = 1.0f;
  const Floats inputs[2] = {{1.0f, -1.0f}, {2.0f, 3.0f}};
  cae_graph graphs[2] = {nullptr, nullptr};
  cae_tensor bound[2][2];
  for (int m = 0; m < 2; ++m) {
    cae_graph_desc desc = describe_graph(tensors, nodes);
    desc.group = group;
    desc.group_member = m;
    desc.group_members = 2;
    REQUIRE(t.graph_compile(members[m].ctx, &desc, &graphs[m]) == CAE_STATUS_OK);
    bound[m][0] = members[m].tensor({2}, inputs[m]);
    bound[m][1] = members[m].filled({2}, 42.0f);
  }
  cae_status status[2] = {CAE_STATUS_INTERNAL, CAE_STATUS_INTERNAL};
  std::thread second([&] { status[1] = t.graph_run(members[1].ctx, graphs[1], bound[1], 2, nullptr); });
  status[0] = t.graph_run(members[0].ctx, graphs[0], bound[0], 2, nullptr);
  second.join();
  CHECK(status[0] == CAE_STATUS_OK);
  CHECK(status[1] == CAE_STATUS_OK);
  const Floats y = members[0].values(bound[0][1]);
  for (int m = 0; m < 2; ++m) t.graph_destroy(members[m].ctx, graphs[m]);
  t.group_destroy(group);
  return y;
}

// Runs `body` in a child process; returns the signal that ended it, or 0.
// A child that hangs instead is ended by SIGALRM, which fails the check.
template <class Body>
int signal_of_child(Body body) {
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    alarm(30);
    body();
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

}  // namespace

TEST_CASE("maxpool-tie: a window of equal values gives its gradient to the last") {
  auto run = [](const cae_backend_table& t) {
    OpenContext s(t);
    cae_tensor dx = s.filled({1, 1, 2, 2}, 9.0f);
    REQUIRE(t.maxpool2x2_backward(s.ctx, s.filled({1, 1, 2, 2}, 0.0f), s.tensor({1, 1, 1, 1}, {1}),
                                  dx) == CAE_STATUS_OK);
    return s.values(dx);
  };
  CHECK(run(cpu()) == Floats{1, 0, 0, 0});
  CHECK(run(mutant("maxpool-tie")) == Floats{0, 0, 0, 1});
}

TEST_CASE("relu-ge: dy passes where y == 0") {
  auto run = [](const cae_backend_table& t) {
    OpenContext s(t);
    cae_tensor dx = s.filled({4}, 9.0f);
    REQUIRE(t.relu_backward(s.ctx, s.tensor({4}, {0, 1, 0, 2}), s.tensor({4}, {5, 6, 7, 8}), dx) ==
            CAE_STATUS_OK);
    return s.values(dx);
  };
  CHECK(run(cpu()) == Floats{0, 6, 0, 8});
  CHECK(run(mutant("relu-ge")) == Floats{5, 6, 7, 8});
}

TEST_CASE("conv-drop-last-dw: dw lacks the last image's x * dy") {
  CHECK(conv_dw_centre(cpu(), {2, 3}, {5, 7}) == doctest::Approx(2 * 5 + 3 * 7));
  CHECK(conv_dw_centre(mutant("conv-drop-last-dw"), {2, 3}, {5, 7}) == doctest::Approx(2 * 5));
}

TEST_CASE("stale-x: the backward pass uses the x of the forward pass, not x's current values") {
  // x [2,1,1,1] = {2, 3}, dy = {5, 7}: dw's centre is sum x * dy. After the
  // forward pass x becomes {1, 1}: the right answer is 12, the stale one 31.
  auto run = [](const cae_backend_table& t) {
    OpenContext s(t);
    const Dims dims = {2, 1, 1, 1};
    cae_tensor x = s.tensor(dims, {2, 3}), w = s.tensor({1, 1, 3, 3}, identity_kernel());
    cae_tensor y = s.filled(dims, 42.0f), dw = s.filled({1, 1, 3, 3}, 42.0f),
               db = s.filled({1}, 42.0f);
    REQUIRE(t.conv2d_forward(s.ctx, x, w, s.tensor({1}, {0.0f}), y, 0) == CAE_STATUS_OK);
    const Floats ones = {1, 1};
    REQUIRE(t.tensor_upload(s.ctx, x, ones.data(), ones.size()) == CAE_STATUS_OK);
    REQUIRE(t.conv2d_backward(s.ctx, x, w, s.tensor(dims, {5, 7}), nullptr, dw, db) ==
            CAE_STATUS_OK);
    return s.values(dw)[4];
  };
  CHECK(run(cpu()) == doctest::Approx(12));
  CHECK(run(mutant("stale-x")) == doctest::Approx(31));
}

TEST_CASE("adam-no-bias-correction: the first step is not lr-sized") {
  // Step 1: m_hat = g and v_hat = g^2, so the update is -lr. Uncorrected:
  // -lr * 0.1 g / sqrt(0.001 g^2) = -lr * sqrt(10).
  CHECK(adam_update(cpu(), 1.0f) == doctest::Approx(-0.1));
  CHECK(adam_update(mutant("adam-no-bias-correction"), 1.0f) ==
        doctest::Approx(-0.1 * std::sqrt(10.0)).epsilon(1e-4));
}

TEST_CASE("adam-eps: epsilon outside the bias correction shows on tiny gradients") {
  // g = eps: header -lr * g / (g + eps) = -lr / 2; the efficient form
  // -lr * sqrt(0.001) / 0.1 * 0.1 g / (sqrt(0.001) g + eps).
  const double efficient = -0.1 * std::sqrt(1e-3) * 1e-9 / (std::sqrt(1e-3) * 1e-8 + 1e-8) / 0.1;
  CHECK(adam_update(cpu(), 1e-8f) == doctest::Approx(-0.05).epsilon(1e-4));
  CHECK(adam_update(mutant("adam-eps"), 1e-8f) == doctest::Approx(efficient).epsilon(1e-4));
  // Where sqrt(v_hat) >> eps the two forms agree: the bug hides there.
  CHECK(adam_update(mutant("adam-eps"), 1.0f) == doctest::Approx(-0.1).epsilon(1e-4));
}

TEST_CASE("rbf-gamma-squared: exp(-gamma^2 d)") {
  auto run = [](const cae_backend_table& t) {
    OpenContext s(t);
    cae_tensor k = s.filled({1, 1}, 9.0f);
    REQUIRE(t.kernel_matrix(s.ctx, s.tensor({1, 1}, {1}), s.tensor({1, 1}, {0}), k, CAE_KERNEL_RBF,
                            0.5f) == CAE_STATUS_OK);
    return s.values(k)[0];
  };
  CHECK(run(cpu()) == doctest::Approx(std::exp(-0.5)));
  CHECK(run(mutant("rbf-gamma-squared")) == doctest::Approx(std::exp(-0.25)));
}

TEST_CASE("unwritten-element: the middle output keeps its old value") {
  CHECK(upsample(cpu(), 1) == Floats{3, 3, 3, 3});
  CHECK(upsample(mutant("unwritten-element"), 1) == Floats{3, 3, 42, 3});
}

TEST_CASE("noisy-deterministic: every other conv2d_forward differs by 1 ulp") {
  const Floats x = {1.5f, -2.0f, 0.25f, 4.0f};
  const Dims dims = {1, 1, 2, 2};
  CHECK(conv_forward(cpu(), dims, x) == conv_forward(cpu(), dims, x));
  const cae_backend_table& noisy = mutant("noisy-deterministic");
  const Floats first = conv_forward(noisy, dims, x), second = conv_forward(noisy, dims, x);
  int differing = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (first[i] == second[i]) continue;
    ++differing;
    CHECK(std::nextafter(std::min(first[i], second[i]), INFINITY) == std::max(first[i], second[i]));
  }
  CHECK(differing == 1);
}

TEST_CASE("bf16-as-fp32: conv inputs lose the bits bfloat16 has not") {
  const float x = 1.0f + 1.0f / 1024;  // 1 + 2^-10: bfloat16 keeps 7 fraction bits
  CHECK(conv_forward(cpu(), {1, 1, 1, 1}, {x}) == Floats{x});
  CHECK(conv_forward(mutant("bf16-as-fp32"), {1, 1, 1, 1}, {x}) == Floats{1.0f});
  CHECK(conv_dw_centre(cpu(), {x}, {1}) == x);
  CHECK(conv_dw_centre(mutant("bf16-as-fp32"), {x}, {1}) == 1.0f);
}

TEST_CASE("first-64-images: image 64 of the output keeps its old contents") {
  const cae_backend_table& first64 = mutant("first-64-images");
  for (int64_t images : {64, 65}) {
    CAPTURE(images);
    const bool cut = images > 64;
    CHECK(upsample(cpu(), images).back() == 3.0f);
    CHECK(upsample(first64, images).back() == (cut ? 42.0f : 3.0f));
    CHECK(upsample(first64, images)[63 * 4] == 3.0f);
    CHECK(maxpool(cpu(), images).back() == 3.0f);
    CHECK(maxpool(first64, images).back() == (cut ? 42.0f : 3.0f));
    const Floats ones(size_t(images), 1.0f);
    CHECK(conv_forward(cpu(), {images, 1, 1, 1}, ones).back() == 1.0f);
    CHECK(conv_forward(first64, {images, 1, 1, 1}, ones).back() == (cut ? 42.0f : 1.0f));
  }
}

TEST_CASE("leaky-free: tensor_free releases nothing") {
  auto growth = [](const cae_backend_table& t) {
    OpenContext s(t);
    const uint64_t before = s.bytes_in_use();
    for (int i = 0; i < 4; ++i) t.tensor_free(s.ctx, s.filled({1024, 256}, 1.0f));
    return s.bytes_in_use() - before;
  };
  CHECK(growth(cpu()) == 0);
  CHECK(growth(mutant("leaky-free")) >= 4 * 1024 * 256 * sizeof(float));
}

TEST_CASE("download-overrun: tensor_download writes dst[count]") {
  auto after_end = [](const cae_backend_table& t) {
    OpenContext s(t);
    Floats dst = {7, 7, 7, 7};  // three floats asked for, a sentinel behind them
    REQUIRE(t.tensor_download(s.ctx, s.filled({3}, 1.0f), dst.data(), 3) == CAE_STATUS_OK);
    return dst[3];
  };
  CHECK(after_end(cpu()) == 7.0f);
  CHECK(after_end(mutant("download-overrun")) == 0.0f);
}

TEST_CASE("probe-error: probe fails") {
  cae_probe_result result{};
  result.struct_size = sizeof result;
  CHECK(cpu().probe(&result) == CAE_STATUS_OK);
  const cae_backend_table& broken = mutant("probe-error");
  CHECK(broken.probe(&result) == CAE_STATUS_INTERNAL);
  CHECK(std::string(broken.last_error(nullptr)).find("probe") == 0);
}

TEST_CASE("struct-size-larger and -smaller: ABI 1.0 with another table size") {
  CHECK(cpu().struct_size == sizeof(cae_backend_table));
  const cae_backend_table& larger = mutant("struct-size-larger");
  CHECK(larger.abi_minor == 0);
  CHECK(larger.struct_size == sizeof(cae_backend_table) + 16);
  const cae_backend_table& smaller = mutant("struct-size-smaller");
  CHECK(smaller.abi_minor == 0);
  CHECK(smaller.struct_size < sizeof(cae_backend_table));
  CHECK(smaller.struct_size >= CAE_BACKEND_TABLE_MIN_SIZE);
}

TEST_CASE("crash: conv2d_backward dies with SIGSEGV above 64 images, not at 64") {
  const cae_backend_table& crash = mutant("crash");
  CHECK(conv_dw_centre(crash, Floats(64, 1.0f), Floats(64, 1.0f)) == doctest::Approx(64));
  // Everything is set up before the fork: the child only makes the one call.
  OpenContext s(crash);
  const Dims dims = {65, 1, 1, 1};
  cae_tensor x = s.filled(dims, 1.0f), w = s.tensor({1, 1, 3, 3}, identity_kernel());
  cae_tensor dy = s.filled(dims, 1.0f), dw = s.filled({1, 1, 3, 3}, 0.0f), db = s.filled({1}, 0.0f);
  CHECK(signal_of_child([&] { crash.conv2d_backward(s.ctx, x, w, dy, nullptr, dw, db); }) ==
        SIGSEGV);
}

TEST_CASE("graph-stale-bindings: a second run on other tensors writes the first run's") {
  CHECK(relu_graph_second_run(cpu()) == Floats{0.0f, 2.0f});
  CHECK(relu_graph_second_run(mutant("graph-stale-bindings")) == Floats{42.0f, 42.0f});
}

TEST_CASE("graph-stale-scalars: a second run updates with the first run's learning rate") {
  CHECK(sgd_graph_two_rates(cpu()) == doctest::Approx(0.25f));  // 1 - 0.5 - 0.25
  CHECK(sgd_graph_two_rates(mutant("graph-stale-scalars")) == doctest::Approx(0.0f));
}

TEST_CASE("graph-exchange-early: the exchange sums what y held before relu wrote it") {
  CHECK(relu_then_exchange(cpu()) == Floats{3.0f, 3.0f});  // relu(1, -1) + relu(2, 3)
  CHECK(relu_then_exchange(mutant("graph-exchange-early")) == Floats{1.0f, 0.0f});
}

TEST_CASE("a mutant names itself mutant-<id>, apart from the cpu backend it wraps") {
  CHECK(std::string(mutant("relu-ge").name) == "mutant-relu-ge");
  CHECK(std::string(cpu().name) == "cpu");
}
