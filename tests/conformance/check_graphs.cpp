// The ABI 1.5 graphs, when the backend provides them: the training step
// (forward, loss, backward, Adam update), the reconstruction with its loss
// and the encoder pass, built by the host's own builder from the seed and
// wide networks on 4x4 images and from random small networks (random depth,
// channels, pool and upsample placement, drawn from the run's seed) at
// every batch the host runs graphs at (1, 63, 64, 65, 80 and 256:
// kHostBatches; the wide network at 1 and 64), each compared with the
// float64 evaluation of the same nodes (up to 65 images) and with the
// backend's own op path: the loss, every updated parameter and Adam moment,
// the reconstruction and the latent. Each compiled graph runs four times, on
// two sets of bound tensors, with two contents and two sets of run
// parameters, the last run on the tensors of the one before with new
// contents (kRuns), so that a backend which captures a run and replays it is
// judged on its replays too, and one that keeps a copy of its input by
// handle is seen. A graph must also refuse tensors of another batch than it
// was compiled for. Check graph_real_shapes runs the same graphs for the seed
// network at its real shape (3x32x32) at the same batches, on every backend
// however slow (the time limits bound it: watchdog.hpp).
//
// Tolerance: a graph composes many ops, so each bound tensor is compared as a
// whole, max|out - ref| <= tol * max|ref| (plus a floor for tensors near
// zero), with tol from the declared precision (1e-4 for FP32, 3e-2 for TF32
// and FP16, 8e-2 for BF16). Adam runs with epsilon 1 so that an update is a
// smooth function of its gradient (with a tiny epsilon it is the gradient's
// sign, which rounding may flip for gradients near zero), and from random
// moments at step 3 (or 7), so that a graph that drops or misorders the
// state fails.
//
// Near ties: where a max-pool window's two largest values, or a ReLU input
// and zero, lie closer than the backend's own rounding (its declared
// precision), rounding alone decides where a gradient goes, and the float64
// evaluation may route it elsewhere: the difference is as large as the
// gradient. Inputs are redrawn until the float64 evaluation has none; a
// graph whose every draw has one (frequent at BF16, with a thousand pool
// windows) is not judged against float64. Every graph is also judged
// against the backend's own op members called node by node on the same
// inputs (each of them certified against float64 by the op checks): a graph
// must give the op sequence's results at the declared precision. Where the
// float64 evaluation had a near tie on every draw, a fused kernel may round a
// tie the other way from the op members: a failure against the op path then
// stands only when further draws fail too (a flip fails one draw, a wrong
// graph every draw).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "checks.hpp"
#include "device_data.hpp"
#include "error_bounds.hpp"
#include "graph_run_contents.hpp"
#include "nn/graph_builder.hpp"
#include "plugin/compiled_graph.hpp"
#include "random_data.hpp"
#include "reference_ops.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

constexpr const char* kOp = "graphs";
using cae_ref::Vec;
namespace nn = cae::nn;

double tolerance() {
  switch (suite().device.precision) {
    case CAE_PRECISION_FP32: return 1e-4;
    case CAE_PRECISION_BF16: return 8e-2;
    default: return 3e-2;
  }
}

// How close (relative to a tensor's largest magnitude) two values must be for
// the backend's rounding to possibly swap them: twice the relative error the
// op checks allow a product at the declared precision (error_bounds.hpp), as
// two values each off by that much in opposite directions trade places. A
// margin of float32's own rounding would judge a certified FP32 backend whose
// convolutions err by more than plain float32 does (winograd's transforms)
// against float64 values that it may route differently, and fail it on a
// seed where two values of a pool window lie between the two margins.
double tie_closeness() { return 2.0 * declared_precision_tolerance(); }

cae_ref::ImageDims image_dims(const cae_graph_tensor& t) {
  return {t.dims[0], t.dims[1], t.dims[2], t.dims[3]};
}

// True when the backend's rounding alone may decide a choice the graph makes:
// a max-pool window whose two largest values (not both zero) lie within
// tie_closeness() of the tensor's largest magnitude of each other, or a ReLU
// input that close to zero (see the note at the top).
double largest_magnitude(const Vec& x) {
  double scale = 0;
  for (double v : x) scale = std::max(scale, std::fabs(v));
  return scale;
}

bool near_tie(const cae_ref::ImageDims& d, const Vec& x) {
  const double close_to = tie_closeness() * largest_magnitude(x);
  for (int64_t nc = 0; nc < d.n * d.c; ++nc) {
    for (int64_t i = 0; i + 1 < d.h; i += 2) {
      for (int64_t j = 0; j + 1 < d.w; j += 2) {
        const double* row = x.data() + (nc * d.h + i) * d.w + j;
        const double w[4] = {row[0], row[1], row[d.w], row[d.w + 1]};
        const double top = *std::max_element(w, w + 4);
        int close = 0;
        for (double v : w) {
          close += (v != 0.0 || top != 0.0) && top - v <= close_to;
        }
        if (close > 1) return true;
      }
    }
  }
  return false;
}

bool near_zero(const Vec& pre_activation) {
  const double close_to = tie_closeness() * largest_magnitude(pre_activation);
  for (double v : pre_activation) {
    if (v != 0.0 && std::fabs(v) <= close_to) return true;
  }
  return false;
}

// The float64 evaluation of nodes [first, end), in order, on `values` (one
// per tensor); *ambiguous is set when a near tie (near_tie, near_zero) makes
// it unfit to judge, and the evaluation stops there.
void evaluate(const nn::GraphSpec& spec, std::vector<Vec>& values,
              const cae_graph_run_params& run, bool* ambiguous, size_t first, size_t end) {
  for (size_t index = first; index < end; ++index) {
    // Past a near tie the values are unfit to judge and go unused: stop (a
    // real-shape graph at BF16 meets one in its first pooling layer).
    if (*ambiguous) return;
    const cae_graph_node& n = spec.nodes[index];
    auto v = [&](int arg) -> Vec& { return values[size_t(n.args[arg])]; };
    auto t = [&](int arg) { return spec.tensors[size_t(n.args[arg])]; };
    switch (n.op) {
      case CAE_GRAPH_CONV2D_FORWARD:
      case CAE_GRAPH_CONV2D_BACKWARD: {
        const cae_graph_tensor x = t(0), w = t(1);
        const cae_ref::ConvDims d{x.dims[0], x.dims[1], x.dims[2], x.dims[3], w.dims[0], w.dims[2]};
        if (n.op == CAE_GRAPH_CONV2D_FORWARD) {
          v(3) = cae_ref::conv2d_forward(d, v(0), v(1), v(2), false);
          if (n.fuse_relu != 0) {
            *ambiguous = *ambiguous || near_zero(v(3));
            v(3) = cae_ref::relu_forward(v(3));
          }
        } else {
          cae_ref::ConvGradients g = cae_ref::conv2d_backward(d, v(0), v(1), v(2), n.args[3] >= 0);
          if (n.args[3] >= 0) v(3) = std::move(g.dx);
          v(4) = std::move(g.dw);
          v(5) = std::move(g.db);
        }
        break;
      }
      case CAE_GRAPH_RELU_FORWARD:
        *ambiguous = *ambiguous || near_zero(v(0));
        v(1) = cae_ref::relu_forward(v(0));
        break;
      case CAE_GRAPH_RELU_BACKWARD: v(2) = cae_ref::relu_backward(v(0), v(1)); break;
      case CAE_GRAPH_MAXPOOL2X2_FORWARD:
        *ambiguous = *ambiguous || near_tie(image_dims(t(0)), v(0));
        v(1) = cae_ref::maxpool2x2_forward(image_dims(t(0)), v(0));
        break;
      case CAE_GRAPH_MAXPOOL2X2_BACKWARD:
        v(2) = cae_ref::maxpool2x2_backward(image_dims(t(0)), v(0), v(1));
        break;
      case CAE_GRAPH_UPSAMPLE2X_FORWARD: v(1) = cae_ref::upsample2x_forward(image_dims(t(0)), v(0)); break;
      case CAE_GRAPH_UPSAMPLE2X_BACKWARD: v(1) = cae_ref::upsample2x_backward(image_dims(t(1)), v(0)); break;
      case CAE_GRAPH_MSE_LOSS: {
        cae_ref::MseResult r = cae_ref::mse_loss(v(0), v(1));
        v(2) = {r.loss};
        if (n.args[3] >= 0) v(3) = std::move(r.grad);
        break;
      }
      case CAE_GRAPH_SGD_STEP:
        cae_ref::sgd_step(v(0), v(1), n.args[2] >= 0 ? &v(2) : nullptr, run.learning_rate,
                          n.momentum, n.weight_decay);
        break;
      case CAE_GRAPH_ADAM_STEP:
        cae_ref::adam_step(v(0), v(1), v(2), v(3),
                           {run.learning_rate, n.beta1, n.beta2, n.epsilon, n.weight_decay,
                            run.adam_step});
        break;
      default: throw std::logic_error("unknown graph op");
    }
  }
}

// A node run through the backend's op members (the op path the host takes
// without graphs) on `tensors`, one per graph tensor.
void run_node_op_by_op(cae::Context& context, const cae_graph_node& n,
                       std::vector<cae::Tensor>& tensors, const cae_graph_run_params& run) {
  {
    auto v = [&](int arg) -> cae::Tensor& { return tensors[size_t(n.args[arg])]; };
    auto optional = [&](int arg) { return n.args[arg] >= 0 ? &v(arg) : nullptr; };
    switch (n.op) {
      case CAE_GRAPH_CONV2D_FORWARD: context.conv2d_forward(v(0), v(1), v(2), v(3), n.fuse_relu != 0); break;
      case CAE_GRAPH_CONV2D_BACKWARD: context.conv2d_backward(v(0), v(1), v(2), optional(3), v(4), v(5)); break;
      case CAE_GRAPH_RELU_FORWARD: context.relu_forward(v(0), v(1)); break;
      case CAE_GRAPH_RELU_BACKWARD: context.relu_backward(v(0), v(1), v(2)); break;
      case CAE_GRAPH_MAXPOOL2X2_FORWARD: context.maxpool2x2_forward(v(0), v(1)); break;
      case CAE_GRAPH_MAXPOOL2X2_BACKWARD: context.maxpool2x2_backward(v(0), v(1), v(2)); break;
      case CAE_GRAPH_UPSAMPLE2X_FORWARD: context.upsample2x_forward(v(0), v(1)); break;
      case CAE_GRAPH_UPSAMPLE2X_BACKWARD: context.upsample2x_backward(v(0), v(1)); break;
      case CAE_GRAPH_MSE_LOSS: context.mse_loss(v(0), v(1), v(2), optional(3)); break;
      case CAE_GRAPH_SGD_STEP:
        context.sgd_step(v(0), v(1), optional(2), run.learning_rate, n.momentum, n.weight_decay);
        break;
      case CAE_GRAPH_ADAM_STEP:
        context.adam_step(v(0), v(1), v(2), v(3),
                          {run.learning_rate, n.beta1, n.beta2, n.epsilon, n.weight_decay,
                           run.adam_step});
        break;
      default: throw std::logic_error("unknown graph op");
    }
  }
}

void run_op_by_op(const nn::GraphSpec& spec, std::vector<cae::Tensor>& tensors,
                  const cae_graph_run_params& run) {
  for (const cae_graph_node& n : spec.nodes) run_node_op_by_op(ctx(), n, tensors, run);
}

// The worst max|out - ref| / (tolerance * max|ref|) over the tensors the
// graph writes and the host may read (outputs and updated state), with the
// tensor where it occurs.
struct Worst {
  double ratio = 0;
  std::string where;
};

Worst compare_bound(const nn::GraphSpec& spec, const std::vector<cae::Tensor>& tensors,
                    const std::vector<Vec>& reference) {
  Worst worst;
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const int32_t role = spec.tensors[i].role;
    if (role == CAE_GRAPH_INTERNAL || role == CAE_GRAPH_INPUT) continue;
    const std::vector<float> out = download(tensors[i]);
    double scale = 1e-3, error = 0;
    for (double r : reference[i]) scale = std::max(scale, std::fabs(r));
    for (size_t e = 0; e < out.size(); ++e) {
      const double d = std::fabs(double(out[e]) - reference[i][e]);
      error = std::isfinite(out[e]) ? std::max(error, d) : HUGE_VAL;
    }
    const double ratio = error / (tolerance() * scale);
    if (ratio > worst.ratio || !(ratio == ratio)) {
      worst.ratio = ratio;
      worst.where = "tensor " + std::to_string(i);
    }
  }
  return worst;
}

// Random values for a bound tensor of this role; positive for Adam's v.
std::vector<float> fill(Random& random, const cae_graph_tensor& t, bool positive) {
  int64_t count = 1;
  for (int i = 0; i < t.ndim; ++i) count *= t.dims[i];
  if (positive) return random.uniform(count, 1e-4f, 1e-2f);
  if (t.role == CAE_GRAPH_INPUT) return random.uniform(count, 0.0f, 1.0f);
  // Weights scaled by their fan-in like a trained network's (He), so that
  // activations keep their size through the layers instead of growing with
  // the channel count until float32 rounding, not the backend, decides.
  const float a = t.ndim == 4 ? std::sqrt(6.0f / float(t.dims[1] * t.dims[2] * t.dims[3])) : 0.1f;
  return random.uniform(count, -a, a);
}

// A draw of every tensor the host binds and fills (inputs, parameters,
// optimiser state; Adam's second moments positive); empty for the ones a
// run writes.
std::vector<std::vector<float>> draw_bound(const nn::GraphSpec& spec, Random& random) {
  std::vector<bool> second(spec.tensors.size(), false);
  for (int32_t v : spec.second_state) second[size_t(v)] = true;
  std::vector<std::vector<float>> hosts(spec.tensors.size());
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const cae_graph_tensor& t = spec.tensors[i];
    if (t.role != CAE_GRAPH_INTERNAL && t.role != CAE_GRAPH_OUTPUT)
      hosts[i] = fill(random, t, second[i]);
  }
  return hosts;
}

// The run scalars of a graph's first run (and of the op path it is judged by).
cae_graph_run_params first_run_scalars() {
  cae_graph_run_params run{};
  run.struct_size = sizeof run;
  run.learning_rate = 0.1f;
  run.adam_step = 3;
  return run;
}

// The first node that reads the run's scalars (an optimiser update); the
// node count when none does. What comes before it is evaluated once for
// both sets of run scalars.
size_t first_update(const nn::GraphSpec& spec) {
  for (size_t i = 0; i < spec.nodes.size(); ++i) {
    const int32_t op = spec.nodes[i].op;
    if (op == CAE_GRAPH_ADAM_STEP || op == CAE_GRAPH_SGD_STEP) return i;
  }
  return spec.nodes.size();
}

// The runs of one compiled graph: two sets of bound tensors, and two cases,
// each a content of those tensors with a set of run scalars. A backend may
// record a run and replay it (a captured device graph), so the same graph
// runs again on other tensors with the second case (the second run), back
// on the first tensors with the first case (the third), and once more on
// those same tensors with the second case (the fourth): a replay on the
// addresses or the learning rate and step of an earlier run leaves outputs
// poisoned or parameters updated as in that run, and a graph that keeps a
// copy of its input by handle (the host uploads every batch into the same
// tensor) computes the fourth run on the third run's images. A graph that
// reads no run scalars, or one judged with the first scalars only, keeps
// them in both cases: its second case differs in contents alone.
struct GraphRunPlan {
  int tensor_set;
  int contents;  // the case: 0 the first contents and scalars, 1 the second
};
constexpr GraphRunPlan kRuns[] = {{0, 0}, {1, 1}, {0, 0}, {0, 1}};
static_assert(std::size(kRuns) <= 4, "keep_worst names at most four runs");

// The bound tensors of one set, made on first use (on `context`), then
// refilled before every run: inputs, parameters and optimiser state from the
// draw, outputs poisoned.
void refill(const nn::GraphSpec& spec, const std::vector<std::vector<float>>& hosts,
            std::vector<cae::Tensor>& tensors, std::vector<cae_tensor>& bound,
            cae::Context& context = ctx()) {
  const bool fresh = tensors.empty();
  if (fresh) {
    tensors.resize(spec.tensors.size());
    bound.assign(spec.tensors.size(), nullptr);
  }
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const cae_graph_tensor& t = spec.tensors[i];
    if (t.role == CAE_GRAPH_INTERNAL) continue;
    Dims dims(t.dims, t.dims + t.ndim);
    if (fresh) {
      tensors[i] = t.role == CAE_GRAPH_OUTPUT ? poisoned_tensor(dims, context)
                                              : upload_tensor(dims, hosts[i], context);
      bound[i] = tensors[i].handle();
    } else if (t.role == CAE_GRAPH_OUTPUT) {
      poison(tensors[i]);
    } else {
      upload(tensors[i], hosts[i]);
    }
  }
}

// The op path's results for one set of run scalars, widened: the nodes run
// one by one on fresh tensors holding the draw.
// Fresh tensors on `context` for running the nodes op by op: internal ones
// allocated, outputs poisoned, the rest holding the draw.
std::vector<cae::Tensor> op_path_tensors(const nn::GraphSpec& spec,
                                         const std::vector<std::vector<float>>& hosts,
                                         cae::Context& context) {
  std::vector<cae::Tensor> tensors(spec.tensors.size());
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const cae_graph_tensor& t = spec.tensors[i];
    Dims dims(t.dims, t.dims + t.ndim);
    if (t.role == CAE_GRAPH_INTERNAL) {
      tensors[i] = context.alloc(dims);
    } else {
      tensors[i] = t.role == CAE_GRAPH_OUTPUT ? poisoned_tensor(dims, context)
                                              : upload_tensor(dims, hosts[i], context);
    }
  }
  return tensors;
}

// What the nodes wrote that the host may read, widened (empty elsewhere).
std::vector<Vec> written_results(const nn::GraphSpec& spec, const std::vector<cae::Tensor>& tensors) {
  std::vector<Vec> results(spec.tensors.size());
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const int32_t role = spec.tensors[i].role;
    if (role != CAE_GRAPH_INTERNAL && role != CAE_GRAPH_INPUT) results[i] = widen(download(tensors[i]));
  }
  return results;
}

std::vector<Vec> op_path_results(const nn::GraphSpec& spec,
                                 const std::vector<std::vector<float>>& hosts,
                                 const cae_graph_run_params& run) {
  std::vector<cae::Tensor> op_path = op_path_tensors(spec, hosts, ctx());
  run_op_by_op(spec, op_path, run);
  return written_results(spec, op_path);
}

// Keeps the larger of two judgements, naming the run it came from.
void keep_worst(Worst& worst, const Worst& run, size_t index) {
  if (run.ratio > worst.ratio || !(run.ratio == run.ratio)) {
    worst.ratio = run.ratio;
    static const char* const kOrdinals[] = {"first", "second", "third", "fourth"};
    worst.where = std::string(kOrdinals[index]) + " run, " + run.where;
  }
}

const char* const kReplayExplanation =
    "the graph's later runs bind other tensors, other run parameters (learning rate, Adam step) "
    "or, in the fourth run, new contents in the same tensors, which a replay of an earlier run "
    "or a copy of an input kept by its handle would not see";

// What a graph's runs are judged against: the float64 evaluation of its
// nodes and the op path, or the op path alone (a graph too large for the
// float64 evaluation to finish in reasonable time).
enum class Judge { Float64AndOps, OpsOnly };

// One case of a graph's runs (kRuns): what its bound tensors hold, its run
// scalars, and what it must give: the float64 evaluation (unused while a
// near tie leaves it unfit, or when the graph is judged by the op path
// alone) and the op path's results.
struct GraphCase {
  std::vector<std::vector<float>> hosts;
  cae_graph_run_params scalars{};
  std::vector<Vec> float64, ops;
};

// The float64 evaluation of both cases; *ambiguous is set when either meets
// a near tie. With rolled images the second case is the first's, rolled, and
// their nodes before the update are evaluated once.
void evaluate_cases(const nn::GraphSpec& spec, GraphCase cases[2], bool rolled, bool* ambiguous) {
  auto widened = [&spec](const GraphCase& c) {
    std::vector<Vec> values(spec.tensors.size());
    for (size_t i = 0; i < spec.tensors.size(); ++i) {
      if (!c.hosts[i].empty()) values[i] = widen(c.hosts[i]);
    }
    return values;
  };
  const size_t updates_from = first_update(spec);
  cases[0].float64 = widened(cases[0]);
  evaluate(spec, cases[0].float64, cases[0].scalars, ambiguous, 0, updates_from);
  cases[1].float64 = rolled ? cases[0].float64 : widened(cases[1]);
  if (!rolled) evaluate(spec, cases[1].float64, cases[1].scalars, ambiguous, 0, updates_from);
  for (int c = 0; c < 2; ++c) {
    evaluate(spec, cases[c].float64, cases[c].scalars, ambiguous, updates_from, spec.nodes.size());
  }
  if (rolled) roll_images(spec, cases[1].float64);
}

// Draws of inputs tried for a float64 evaluation without a near tie, and
// further draws that must confirm a failure judged by the op path alone.
constexpr int kDraws = 8;
constexpr int kConfirmingDraws = 2;

// Draw `draw` of both cases' bound tensors (the second case the first's,
// rolled, when the graph rolls its images).
void draw_cases(const nn::GraphSpec& spec, uint64_t seed, int draw, bool rolled, GraphCase cases[2]) {
  Random random(seed + uint64_t(draw) * 0x9e3779b97f4a7c15ull);
  cases[0].hosts = draw_bound(spec, random);
  cases[1].hosts = rolled ? cases[0].hosts : draw_bound(spec, random);
  if (rolled) roll_images(spec, cases[1].hosts);
}

// Draws 0, 1, ... of both cases until one's float64 evaluation has no near
// tie (its cases are left in `cases`, and false returned), or kDraws of
// them have one (the last draw's cases are left, and true returned): what
// drawing and evaluating them one after another gives. The first draw is
// made alone (at FP32 it rarely meets a tie); the others in waves as wide as
// OpenMP's thread count (a sweep that runs seeds side by side sets it to
// one: one draw at a time, stopping at the first without a tie). Each draw
// comes from its own seed and a wave's draws are taken in order, so the one
// chosen does not depend on the threads. At BF16 every draw of a small graph
// often meets a tie, and seven more draws one by one were most of a GPU
// backend's certification time.
bool draw_until_no_tie(const nn::GraphSpec& spec, uint64_t seed, bool rolled, GraphCase cases[2]) {
  struct Draw {
    GraphCase cases[2];
    bool ambiguous = false;
    std::exception_ptr failure;
  };
  const cae_graph_run_params scalars[2] = {cases[0].scalars, cases[1].scalars};
  const int threads = std::max(1, omp_get_max_threads());
  for (int first = 0; first < kDraws;) {
    const int count = first == 0 ? 1 : std::min(threads, kDraws - first);
    std::vector<Draw> wave(static_cast<size_t>(count));
    // Exceptions cannot leave an OpenMP region: each draw keeps its own.
#pragma omp parallel for schedule(dynamic, 1) num_threads(count)
    for (int i = 0; i < count; ++i) {
      Draw& d = wave[size_t(i)];
      try {
        d.cases[0].scalars = scalars[0];
        d.cases[1].scalars = scalars[1];
        draw_cases(spec, seed, first + i, rolled, d.cases);
        evaluate_cases(spec, d.cases, rolled, &d.ambiguous);
      } catch (...) {
        d.failure = std::current_exception();
      }
    }
    first += count;
    for (Draw& d : wave) {
      if (d.failure) std::rethrow_exception(d.failure);
      // The first draw without a tie, or the last draw of all (the op path judges it).
      if (!d.ambiguous || (first == kDraws && &d == &wave.back())) {
        cases[0] = std::move(d.cases[0]);
        cases[1] = std::move(d.cases[1]);
        if (!d.ambiguous) return false;
      }
    }
  }
  return true;
}

// Both cases' op path results on their drawn tensors.
void add_op_path_results(const nn::GraphSpec& spec, bool rolled, bool reads_scalars,
                         GraphCase cases[2]) {
  cases[0].ops = op_path_results(spec, cases[0].hosts, cases[0].scalars);
  if (rolled && !reads_scalars) {
    // The same scalars on rolled images: the first case's results, rolled
    // (one op path run less, which at the real shapes is most of a check).
    cases[1].ops = cases[0].ops;
    roll_images(spec, cases[1].ops);
  } else {
    cases[1].ops = op_path_results(spec, cases[1].hosts, cases[1].scalars);
  }
}

// The graph's kRuns runs on the two cases, each compared with the op path
// and, when `with_float64`, with the float64 evaluation.
struct RunsJudged {
  Worst against_ops, against_float64;
};

RunsJudged run_and_judge(const nn::GraphSpec& spec, cae::CompiledGraph& graph,
                         const GraphCase cases[2], bool with_float64) {
  std::vector<cae::Tensor> tensors[2];
  std::vector<cae_tensor> bound[2];
  RunsJudged judged;
  for (size_t r = 0; r < std::size(kRuns); ++r) {
    const GraphRunPlan plan = kRuns[r];
    const GraphCase& now = cases[plan.contents];
    refill(spec, now.hosts, tensors[plan.tensor_set], bound[plan.tensor_set]);
    graph.run(bound[plan.tensor_set], &now.scalars);
    keep_worst(judged.against_ops, compare_bound(spec, tensors[plan.tensor_set], now.ops), r);
    if (with_float64) {
      keep_worst(judged.against_float64,
                 compare_bound(spec, tensors[plan.tensor_set], now.float64), r);
    }
  }
  return judged;
}

// Compiles one graph, runs it as kRuns plans and compares every run with the
// float64 evaluation and with the op path (a note when the backend answers
// UNSUPPORTED for it).
void check_graph(const std::string& label, const nn::GraphSpec& spec, uint64_t seed,
                 Judge judge = Judge::Float64AndOps) {
  cae::Context& context = ctx();
  std::unique_ptr<cae::CompiledGraph> graph =
      cae::CompiledGraph::compile(context, spec.tensors, spec.nodes);
  if (!graph) {
    note(kOp, label, "unsupported (runs op by op)");
    return;
  }
  // Judged by the op path alone (a large graph), both cases keep the first
  // scalars, which the small graphs' cases vary.
  const bool reads_scalars = first_update(spec) < spec.nodes.size() && judge == Judge::Float64AndOps;
  GraphCase cases[2];
  cases[0].scalars = cases[1].scalars = first_run_scalars();
  if (reads_scalars) {
    cases[1].scalars.learning_rate = 0.02f;
    cases[1].scalars.adam_step = 7;
  }
  const bool rolled = rolls_images(spec);
  // Draw the bound tensors until the float64 evaluation has no near tie
  // (judged by the op path alone: one draw, no float64 evaluation).
  bool ambiguous = true;
  if (judge == Judge::OpsOnly) {
    draw_cases(spec, seed, 0, rolled, cases);
  } else {
    ambiguous = draw_until_no_tie(spec, seed, rolled, cases);
  }
  add_op_path_results(spec, rolled, reads_scalars, cases);
  const RunsJudged judged = run_and_judge(spec, *graph, cases, !ambiguous);
  const Worst& against_ops = judged.against_ops;
  const Worst& against_float64 = judged.against_float64;
  if (ambiguous) {
    if (judge == Judge::Float64AndOps) {
      note(
          kOp, label,
          "every draw of inputs had a near tie at this precision; judged against the op path only");
    }
    // A near tie the graph's fused kernels round the other way from the op
    // members (an epilogue that rounds once where the op path rounds twice)
    // sends a gradient to another element of a pool window: a flip fails the
    // draw that has it, a wrong graph fails every draw. A failure stands only
    // when each of kConfirmingDraws further draws fails too.
    Worst verdict = against_ops;
    for (int extra = 0; verdict.ratio > 1.0 && extra < kConfirmingDraws; ++extra) {
      draw_cases(spec, seed, kDraws + extra, rolled, cases);
      add_op_path_results(spec, rolled, reads_scalars, cases);
      const Worst again = run_and_judge(spec, *graph, cases, false).against_ops;
      if (again.ratio <= 1.0) {
        note(kOp, label,
             "a draw with a near tie failed against the op path (worst err/bound " +
                 sci(verdict.ratio) + ", " + verdict.where + ") and a further draw passed (" +
                 sci(again.ratio) + "): a rounding flip at the tie, not a wrong graph");
        verdict = again;
      }
    }
    if (!record(verdict.ratio <= 1.0, kOp, label + " (op path)",
                "worst err/bound " + sci(verdict.ratio) + " (" + verdict.where + ")",
                verdict.ratio)) {
      explain(verdict.where.rfind("first run,", 0) == 0
                  ? "the graph's bound tensors differ from its nodes run op by op on the same inputs "
                    "(on every draw tried)"
                  : kReplayExplanation);
    }
    return;
  }
  const bool ops_agree = against_ops.ratio <= 1.0;
  const Worst& worst = against_float64.ratio >= against_ops.ratio ? against_float64 : against_ops;
  if (!record(against_float64.ratio <= 1.0 && ops_agree, kOp, label,
              "worst err/bound " + sci(worst.ratio) + " (" + worst.where +
                  (worst.ratio == against_ops.ratio && against_ops.ratio > against_float64.ratio
                       ? ", against the op path)"
                       : ")"),
              worst.ratio)) {
    if (worst.where.rfind("first run,", 0) != 0) {
      explain(kReplayExplanation);
    } else {
      explain(ops_agree ? "the graph's bound tensors differ from the float64 evaluation of its nodes"
                        : "the graph's bound tensors differ from its nodes run op by op on the same inputs");
    }
  }
}

// The floating-point operations of one run of a graph's convolutions, which
// dominate it (what scales a check's time limit: watchdog.hpp).
double convolution_work(const nn::GraphSpec& spec) {
  double work = 0;
  for (const cae_graph_node& n : spec.nodes) {
    if (n.op != CAE_GRAPH_CONV2D_FORWARD && n.op != CAE_GRAPH_CONV2D_BACKWARD) continue;
    const cae_graph_tensor& x = spec.tensors[size_t(n.args[0])];
    const cae_graph_tensor& w = spec.tensors[size_t(n.args[1])];
    // 'same' convolutions: one multiply-add per output pixel, output channel
    // and weight of its filter; the backward pass computes two such products.
    const double multiply_adds = double(x.dims[0]) * double(x.dims[2] * x.dims[3]) *
                                 double(w.dims[0] * w.dims[1] * w.dims[2] * w.dims[3]);
    work += (n.op == CAE_GRAPH_CONV2D_FORWARD ? 2.0 : 4.0) * multiply_adds;
  }
  return work;
}

// A graph compiled for `batch` must refuse an input of batch - 1 (or + 1).
void check_batch_refusal(const std::string& label, const nn::Network& network, int64_t batch) {
  const nn::GraphSpec spec = nn::build_encoder_graph(network, batch);
  std::unique_ptr<cae::CompiledGraph> graph =
      cae::CompiledGraph::compile(ctx(), spec.tensors, spec.nodes);
  if (!graph) return;
  const int64_t other = batch > 1 ? batch - 1 : batch + 1;
  std::vector<cae::Tensor> tensors(spec.tensors.size());
  std::vector<cae_tensor> bound(spec.tensors.size(), nullptr);
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const cae_graph_tensor& t = spec.tensors[i];
    if (t.role == CAE_GRAPH_INTERNAL) continue;
    Dims dims(t.dims, t.dims + t.ndim);
    if (t.role == CAE_GRAPH_INPUT || t.role == CAE_GRAPH_OUTPUT) dims[0] = other;
    tensors[i] = upload_tensor(dims, std::vector<float>(size_t(count_of(dims)), 0.25f));
    bound[i] = tensors[i].handle();
  }
  bool refused = false;
  try {
    graph->run(bound);
  } catch (const cae::BackendError& e) {
    refused = e.status() == CAE_STATUS_INVALID_ARGUMENT;
  }
  record(refused, kOp, label + " batch " + std::to_string(batch) + " run at " + std::to_string(other),
         refused ? "refused" : "not refused: a graph ran on tensors of another batch");
}

// The presets networks() puts first, in this order, on 4x4 images.
struct PresetNetwork {
  const char* preset;
  const char* label;  // as the checks name it
  // Whether check_graphs runs it at every host batch, or only at batches 1
  // and 64 (what its case checks is the same at every batch).
  bool every_batch;
};
constexpr PresetNetwork kPresetNetworks[] = {
    // The seed's layers (a 1x1 latent).
    {"seed", "seed 3x4x4", true},
    // The wide preset's layers: channels a GEMM backend keeps BF16 copies
    // of, and 5x5 edge layers that no fused kernel takes, so one training
    // step derives more buffers than a context's cache holds at once (a
    // backend that records a step must not evict what it recorded). Its 512
    // channels would make the other batches the suite's slowest checks.
    {"wide", "wide 3x4x4", false},
};

std::string network_label(size_t m, const nn::Network& network) {
  if (m < std::size(kPresetNetworks)) return kPresetNetworks[m].label;
  return "random model " + std::to_string(m + 1 - std::size(kPresetNetworks)) + " (" +
         std::to_string(network.layers().size()) + " layers)";
}

std::vector<nn::Network> networks(uint64_t seed, bool quick) {
  std::vector<nn::Network> list;
  for (const PresetNetwork& preset : kPresetNetworks) {
    list.emplace_back(nn::model_preset(preset.preset), 3, 4);
  }
  Random random(seed ^ 0x67726170ull);
  const size_t fixed = list.size();
  const size_t count = quick ? 1 : 2;
  while (list.size() < fixed + count) {
    nn::ModelDescription d;
    d.name = "random";
    const int depth = 1 + int(random.index(2));
    for (int i = 0; i < depth; ++i) {
      d.encoder.push_back({1 + int(random.index(6)), 1 + 2 * int(random.index(2)), random.index(4) != 0,
                           random.index(2) == 0});
    }
    const int channels = 1 + int(random.index(3));
    d.decoder = nn::mirrored_decoder(d.encoder, channels);
    try {
      list.emplace_back(d, channels, 8);
    } catch (const std::invalid_argument&) {
      // a layout these images cannot take: draw again
    }
  }
  return list;
}

// ---- ABI 1.6: the gradient exchange inside the step ----------------------
//
// A group over two contexts (the suite's device and the next); each member
// compiles the training step with an all_reduce_sum node after every
// gradient (scale 1/2) and runs it on its own batch, on its own thread, both
// at once, from the same parameters and Adam state. Both members must end
// with the float64 evaluation in which every exchange sums the two members'
// gradients: the exchanged gradients (bound as outputs), the updated
// parameters and moments, each member's loss. Then a member whose run fails
// (a binding of another batch) must make the other's run fail too, not wait.

bool has_exchange_members(const cae_backend_table& t) {
  return t.abi_minor >= 6 && CAE_TABLE_HAS(&t, group_create) &&
         CAE_TABLE_HAS(&t, group_all_reduce_sum) && CAE_TABLE_HAS(&t, group_destroy);
}

// Runs body(member) for members 0 and 1 on two threads at once; the failures
// by member ("" when it succeeded).
std::vector<std::string> on_both(const std::function<void(int)>& body) {
  std::vector<std::string> failures(2);
  auto guarded_body = [&](int m) {
    try {
      body(m);
    } catch (const std::exception& e) {
      failures[size_t(m)] = e.what();
    }
  };
  std::thread second(guarded_body, 1);
  guarded_body(0);
  second.join();
  return failures;
}

// The op path of the step with exchanges, for both members at once: each
// member's nodes through its own context's op members, and at every
// exchange the backend's group_all_reduce_sum over both members' tensors
// (what the host does without graph exchanges). Widened results per member.
void exchanged_op_path_results(const nn::GraphSpec& spec,
                               const std::vector<std::vector<float>> hosts[2],
                               cae::Context* members[2], cae_group group,
                               const cae_graph_run_params& run, std::vector<Vec> results[2]) {
  std::vector<cae::Tensor> tensors[2] = {op_path_tensors(spec, hosts[0], *members[0]),
                                         op_path_tensors(spec, hosts[1], *members[1])};
  for (const cae_graph_node& n : spec.nodes) {
    if (n.op != CAE_GRAPH_ALL_REDUCE_SUM) {
      for (int m = 0; m < 2; ++m) run_node_op_by_op(*members[m], n, tensors[m], run);
      continue;
    }
    const cae_tensor both[2] = {tensors[0][size_t(n.args[0])].handle(),
                                tensors[1][size_t(n.args[0])].handle()};
    if (table().group_all_reduce_sum(group, both, 1, n.scale) != CAE_STATUS_OK) {
      throw std::runtime_error(std::string("group_all_reduce_sum: ") + table().last_error(nullptr));
    }
  }
  for (int m = 0; m < 2; ++m) results[m] = written_results(spec, tensors[m]);
}

// by_ops: judge against the op path with the host's exchange only (no
// float64 step: for the real shapes, where the float64 evaluation would take
// minutes and near ties are certain).
void check_exchange_step(const std::string& label, const nn::Network& network, int64_t batch,
                         cae::Context* members[2], cae_group group, uint64_t seed,
                         bool by_ops = false) {
  nn::TrainingGraphOptions options;
  options.update = {nn::GraphUpdate::Kind::Adam, 0.9f, 0.999f, 1.0f, 0.0f, 1e-3f};
  std::unique_ptr<cae::CompiledGraph> graphs[2];
  nn::GraphSpec specs[2];
  for (int m = 0; m < 2; ++m) {
    options.exchange = {group, m, 2, 0.5f};
    specs[m] = nn::build_training_graph(network, batch, options);
    graphs[m] = cae::CompiledGraph::compile(*members[m], specs[m].tensors, specs[m].nodes,
                                            {group, m, 2});
    if (!graphs[m]) {
      note(kOp, label, "unsupported (the host exchanges the gradients op by op)");
      return;
    }
  }
  const nn::GraphSpec& spec = specs[0];  // the same tensors and nodes on both
  std::vector<bool> second(spec.tensors.size(), false);
  for (int32_t v : spec.second_state) second[size_t(v)] = true;
  cae_graph_run_params scalars{};
  scalars.struct_size = sizeof scalars;
  scalars.learning_rate = 0.1f;
  scalars.adam_step = 3;
  // Each member's draw: its own batch, the replicas' shared parameters and state.
  std::vector<std::vector<float>> hosts[2];
  std::vector<Vec> values[2];
  bool ambiguous = true;
  for (int draw = 0; draw < 8 && ambiguous; ++draw) {
    Random shared(seed + uint64_t(draw) * 0x9e3779b97f4a7c15ull);
    for (int m = 0; m < 2; ++m) {
      hosts[m].assign(spec.tensors.size(), {});
      values[m].assign(spec.tensors.size(), {});
    }
    for (size_t i = 0; i < spec.tensors.size(); ++i) {
      const cae_graph_tensor& t = spec.tensors[i];
      if (t.role != CAE_GRAPH_PARAMETER && t.role != CAE_GRAPH_OPTIMIZER_STATE) continue;
      hosts[0][i] = hosts[1][i] = fill(shared, t, second[i]);
    }
    for (int m = 0; m < 2; ++m) {
      Random own(seed * 7 + uint64_t(m + 1) * 0x632be59bd9b4e019ull + uint64_t(draw));
      for (size_t i = 0; i < spec.tensors.size(); ++i) {
        if (spec.tensors[i].role == CAE_GRAPH_INPUT) hosts[m][i] = fill(own, spec.tensors[i], false);
        if (!hosts[m][i].empty()) values[m][i] = widen(hosts[m][i]);
      }
    }
    if (by_ops) break;  // ambiguous: judged by the op path below
    ambiguous = false;
    for (size_t n = 0; n < spec.nodes.size(); ++n) {
      const cae_graph_node& node = spec.nodes[n];
      if (node.op != CAE_GRAPH_ALL_REDUCE_SUM) {
        for (int m = 0; m < 2; ++m) evaluate(spec, values[m], scalars, &ambiguous, n, n + 1);
        continue;
      }
      Vec& a = values[0][size_t(node.args[0])];
      Vec& b = values[1][size_t(node.args[0])];
      for (size_t e = 0; e < a.size(); ++e) a[e] = b[e] = double(node.scale) * (a[e] + b[e]);
    }
  }
  // A near tie at the backend's precision (a ReLU or a pool's choice that
  // rounding may flip) leaves the float64 step no judge: the op path with
  // the host's exchange, on the same inputs, is then the reference.
  if (ambiguous) exchanged_op_path_results(spec, hosts, members, group, scalars, values);
  const std::string judge = by_ops      ? " (op path)"
                            : ambiguous ? " (op path: every draw had a near tie at this precision)"
                                        : "";
  std::vector<cae::Tensor> tensors[2];
  std::vector<cae_tensor> bound[2];
  // Three runs from the same start: a backend may run a graph's first run
  // node by node, record the second and replay the third (v4 does), and
  // each must exchange the final gradients.
  constexpr int kExchangedRuns = 3;
  Worst worst[2];
  std::string failed[2];
  for (int r = 0; r < kExchangedRuns; ++r) {
    for (int m = 0; m < 2; ++m) refill(spec, hosts[m], tensors[m], bound[m], *members[m]);
    const std::vector<std::string> failures =
        on_both([&](int m) { graphs[m]->run(bound[m], &scalars); });
    for (int m = 0; m < 2; ++m) {
      if (!failed[m].empty()) continue;
      if (!failures[size_t(m)].empty()) {
        failed[m] = "run " + std::to_string(r + 1) + ": " + failures[size_t(m)];
        continue;
      }
      keep_worst(worst[m], compare_bound(spec, tensors[m], values[m]), size_t(r));
    }
    if (!failed[0].empty() || !failed[1].empty()) break;
  }
  for (int m = 0; m < 2; ++m) {
    const std::string who = label + " member " + std::to_string(m);
    if (!failed[m].empty()) {
      record(false, kOp, who, failed[m]);
      continue;
    }
    if (!record(worst[m].ratio <= 1.0, kOp, who + judge,
                "worst err/bound " + sci(worst[m].ratio) + " (" + worst[m].where + ")",
                worst[m].ratio)) {
      explain(ambiguous ? "a member's gradients, parameters or moments differ from the same step "
                          "run op by op with the host's exchange after the backward pass"
                        : "a member's gradients, parameters or moments differ from the float64 step "
                          "in which every exchange sums both members' final gradients");
    }
  }
  // One member's run fails (a binding of another batch): the other must fail too.
  const int64_t other = batch + 1;
  std::vector<cae::Tensor> wrong;
  std::vector<cae_tensor> bad = bound[1];
  Dims dims(spec.tensors[size_t(spec.input)].dims,
            spec.tensors[size_t(spec.input)].dims + spec.tensors[size_t(spec.input)].ndim);
  dims[0] = other;
  wrong.push_back(upload_tensor(dims, std::vector<float>(size_t(count_of(dims)), 0.5f), *members[1]));
  bad[size_t(spec.input)] = wrong.back().handle();
  const std::vector<std::string> both = on_both([&](int m) {
    graphs[m]->run(m == 0 ? bound[0] : bad, &scalars);
  });
  record(!both[0].empty() && !both[1].empty(), kOp, label + " a member's failed run",
         both[0].empty() ? "member 0's run returned as if the exchange had happened"
                         : "fails the other member's run too, without a wait");
}

void check_exchange() {
  const cae_backend_table& t = table();
  if (!has_exchange_members(t)) {
    note(kOp, "exchange in the step",
         "not provided (ABI 1.6 all_reduce_sum nodes need the group members)");
    return;
  }
  cae_probe_result probe{};
  probe.struct_size = sizeof probe;
  const int32_t devices = t.probe(&probe) == CAE_STATUS_OK ? probe.device_count : 0;
  const int32_t other = devices > 0 ? (suite().device_index + 1) % devices : 0;
  std::unique_ptr<cae::Context> second;
  try {
    second = std::make_unique<cae::Context>(t, other, 0, suite().backend_options);
  } catch (const std::exception& e) {
    note(kOp, "exchange in the step", std::string("skipped: no second context: ") + e.what());
    return;
  }
  cae::Context* members[2] = {&ctx(), second.get()};
  cae_context contexts[2] = {ctx().handle(), second->handle()};
  cae_group group = nullptr;
  if (t.group_create(contexts, 2, &group) != CAE_STATUS_OK || group == nullptr) {
    note(kOp, "exchange in the step",
         std::string("skipped: no group over two contexts here: ") + t.last_error(nullptr));
    return;
  }
  struct GroupGuard {
    const cae_backend_table& t;
    cae_group g;
    ~GroupGuard() { t.group_destroy(g); }
  } guard{t, group};
  const std::vector<nn::Network> list = networks(suite().seed, true);
  const std::vector<int64_t> batches = suite().quick ? std::vector<int64_t>{3}
                                                     : std::vector<int64_t>{1, 3};
  for (size_t m = 0; m < list.size(); ++m) {
    for (const int64_t batch : batches) {
      const std::string label =
          network_label(m, list[m]) + " batch " + std::to_string(batch) + " step exchanged over 2";
      guarded(kOp, label, [&] {
        check_exchange_step(label, list[m], batch, members, group,
                            suite().seed * 977 + m * 31 + uint64_t(batch));
      });
    }
  }
  if (suite().quick) return;
  // The seed network at its real shape: the exchanges then overlap kernels
  // that run long enough for an exchange started too early, or an update
  // that does not wait for its exchange, to read a gradient half written.
  const nn::Network real(nn::model_preset("seed"), 3, 32);
  constexpr int64_t kRealBatch = 16;
  const std::string label = "seed 3x32x32 batch " + std::to_string(kRealBatch) + " step exchanged over 2";
  guarded(kOp, label, [&] {
    check_exchange_step(label, real, kRealBatch, members, group, suite().seed * 977 + 7,
                        /*by_ops=*/true);
  });
}

// The training step's update: Adam with epsilon 1 (see the note at the top).
nn::TrainingGraphOptions adam_with_epsilon_1() {
  nn::TrainingGraphOptions training;
  training.update = {nn::GraphUpdate::Kind::Adam, 0.9f, 0.999f, 1.0f, 0.0f, 1e-3f};
  return training;
}

// The three graphs of one network at one batch, each a check of its own,
// with a time limit scaled to the convolutions of its runs (four of the
// graph and up to two of the op path: kRuns).
void check_graph_kinds(const std::string& at, const nn::Network& network, int64_t batch,
                       uint64_t seed, Judge judge) {
  const nn::GraphSpec graphs[] = {nn::build_training_graph(network, batch, adam_with_epsilon_1()),
                                  nn::build_reconstruction_graph(network, batch, true),
                                  nn::build_encoder_graph(network, batch)};
  const char* const kinds[] = {" training step", " reconstruction", " encoder"};
  for (size_t g = 0; g < std::size(graphs); ++g) {
    guarded(
        kOp, at + kinds[g], [&] { check_graph(at + kinds[g], graphs[g], seed + g, judge); },
        6.0 * convolution_work(graphs[g]));
  }
}

// The batches the host runs graphs at: a training step of 64 images (the
// recipe's), one short of and one past it, an extraction pass of 256 and
// the 80 left for the last pass over a 50,000-image set at 256. Batch 1
// also stands for any batch a backend treats as a special case.
constexpr int64_t kPartialLastBatch = 50000 % 256;
constexpr int64_t kHostBatches[] = {1, 63, 64, 65, kPartialLastBatch, 256};

std::string batch_label(int64_t batch) {
  return "batch " + std::to_string(batch) + (batch == kPartialLastBatch ? " (a set's last)" : "");
}

// The seed network at its real shape (3x32x32 images), at the host's
// batches: a backend picks its kernels, tiles and launch shapes from these,
// which the small networks never reach. Batch 1 is judged against float64
// too; the larger batches against the op path alone (each op is certified
// against float64 at these layers by its own checks, while a float64
// evaluation of a whole step at batch 256 would take minutes). Every batch,
// on every backend: a backend too slow for them is stopped by the time
// limits (watchdog.hpp) and FAILS; none is left out.
void check_real_shapes(bool larger_batches) {
  const nn::Network real(nn::model_preset("seed"), 3, 32);
  for (const int64_t batch : kHostBatches) {
    if ((batch > 1) != larger_batches) continue;
    check_graph_kinds("seed 3x32x32 " + batch_label(batch), real, batch,
                      suite().seed * 131 + 7919 + uint64_t(batch),
                      batch == 1 ? Judge::Float64AndOps : Judge::OpsOnly);
  }
}

// Whether the real-shape graphs are checked in this run (a note when not).
bool real_shapes_checked(const char* what) {
  const cae_backend_table& t = table();
  if (!(CAE_TABLE_HAS(&t, graph_compile) && CAE_TABLE_HAS(&t, graph_run) &&
        CAE_TABLE_HAS(&t, graph_destroy))) {
    note(kOp, what, "no graph members (optional, ABI 1.5; an incomplete set fails under graphs)");
    return false;
  }
  if (suite().quick) {
    note(kOp, what, "not checked with --quick (the small networks only)");
    return false;
  }
  return true;
}

}  // namespace

void check_graphs() {
  const cae_backend_table& t = table();
  const int members = CAE_TABLE_HAS(&t, graph_compile) + CAE_TABLE_HAS(&t, graph_run) +
                      CAE_TABLE_HAS(&t, graph_destroy);
  if (members == 0) {
    note(kOp, "graph members", "not provided (optional, ABI 1.5)");
    return;
  }
  if (!record(members == 3, kOp, "members",
              members == 3 ? "all three" : "incomplete: provide all three or none")) {
    return;
  }
  // Every batch of the host's on the small networks too, where they cost
  // little: a graph that leaves out images past some count fails here on
  // every backend. Up to 65 images each run is judged against float64 as
  // well; past it, against the op path alone (a near tie somewhere among
  // so many pool windows and activations is then almost certain, and would
  // leave float64 no judge after eight evaluations).
  constexpr int64_t kMostFloat64Images = 65;
  const bool quick = suite().quick;
  const std::vector<int64_t> batches = quick ? std::vector<int64_t>{1, 65}
                                             : std::vector<int64_t>(std::begin(kHostBatches),
                                                                    std::end(kHostBatches));
  const std::vector<nn::Network> list = networks(suite().seed, quick);
  for (size_t m = 0; m < list.size(); ++m) {
    const nn::Network& network = list[m];
    const std::string name = network_label(m, network);
    const bool every_batch = m >= std::size(kPresetNetworks) || kPresetNetworks[m].every_batch;
    for (int64_t batch : batches) {
      if (!every_batch && batch != 1 && batch != 64) continue;
      check_graph_kinds(name + " " + batch_label(batch), network, batch,
                        suite().seed * 131 + m * 17 + uint64_t(batch),
                        batch <= kMostFloat64Images ? Judge::Float64AndOps : Judge::OpsOnly);
    }
    guarded(kOp, name + " other batch", [&] { check_batch_refusal(name, network, 4); });
  }
}

void check_graph_real_shapes() {
  if (real_shapes_checked("real shapes")) check_real_shapes(false);
}

void check_graph_real_batches() {
  if (real_shapes_checked("real shapes, larger batches")) check_real_shapes(true);
}

void check_graph_exchanges() { check_exchange(); }

}  // namespace conformance
