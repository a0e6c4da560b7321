// Host-only tests of the direct path (winograd_direct_passes.hpp) and of the
// rule that picks it per layer (uses_direct_path): the backend's own direct
// items, im2col, GEMM call and image passes on the host executor (cuBLAS's
// semantics in float32), against a float64 convolution, on conv1 and conv5,
// odd shapes with partial column quads, channel counts around the direct
// kernel's groups, batches of 1 and 257, and the weight gradient in several
// passes. Outputs and workspace start as NaN, so an element never written, or
// a read of scratch no step wrote, fails.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "winograd_direct_passes.hpp"
#include "winograd_test_support.hpp"
#include "winograd_tuning_table.hpp"

namespace {

using namespace cae_winograd;
using namespace winograd_test;

// The direct path's forward and backward steps, as winograd_conv.cu runs them.
Results run_direct_path(const Layer& l, const LayerData& in, bool relu, int64_t images_per_chunk) {
  const cae_plugin::ConvDims d{l.n, l.c, l.h, l.w, l.o, 3};
  LaunchParams params;
  params.images_per_chunk = images_per_chunk;
  const float nan = std::nanf("");
  HostExecutor exec;
  Results r;
  r.y.assign(in.dy.size(), nan);
  r.dx.assign(in.x.size(), nan);
  r.dw.assign(in.w.size(), nan);
  const FilterGradientPlan plan = plan_filter_gradient(d, params);
  // db comes from this path only with the ones row (else a GPU kernel).
  if (plan.bias_in_gemm) r.db.assign(in.b.size(), nan);
  direct_forward(exec, d, in.x.data(), in.w.data(), in.b.data(), r.y.data(), relu);
  FloatVec workspace(static_cast<size_t>(plan.workspace()), nan);
  direct_filter_gradient(exec, d, plan, in.x.data(), in.dy.data(), r.dw.data(),
                         plan.bias_in_gemm ? r.db.data() : nullptr, workspace.data());
  direct_data_gradient(exec, d, in.dy.data(), in.w.data(), r.dx.data());
  return r;
}

// A direct FP32 convolution's worst error is far inside the bound: the
// Winograd steps reached 0.32 (conv1 y) and 0.55 (conv5 dx) of it on the same
// data, so a share above 0.1 means the path is not a plain dot product.
constexpr double kDirectShareLimit = 0.1;

void check_direct(const Layer& l, bool relu, int64_t images_per_chunk = 0) {
  const LayerData in = make_layer_data(l);
  const Reference ref = direct(l, in.x, in.w, in.b, in.dy, relu);
  const Results got = run_direct_path(l, in, relu, images_per_chunk);
  const BoundShares shares = measure("direct", l, images_per_chunk, got, ref);
  INFO(l.name << " relu " << relu << " chunk " << images_per_chunk);
  CHECK(shares.y <= kDirectShareLimit);
  CHECK(shares.dx <= kDirectShareLimit);
  CHECK(shares.dw <= kDirectShareLimit);
  CHECK(got.db.empty() == (l.c > l.o));  // a narrow input gives db by the ones row
  CHECK(shares.db <= kDirectShareLimit);
}

TEST_CASE("dispatch: the model's 3-channel layers run direct, the wide ones by Winograd") {
  CHECK(uses_direct_path({3, 256, 32, 32}));     // conv1
  CHECK(!uses_direct_path({256, 128, 16, 16}));  // conv2
  CHECK(!uses_direct_path({128, 128, 8, 8}));    // conv3
  CHECK(!uses_direct_path({128, 256, 16, 16}));  // conv4
  CHECK(uses_direct_path({256, 3, 32, 32}));     // conv5
  // The threshold, on either side, for any image size.
  CHECK(uses_direct_path({kDirectChannelThreshold - 1, 4096, 1, 1}));
  CHECK(uses_direct_path({4096, kDirectChannelThreshold - 1, 7, 5}));
  CHECK(!uses_direct_path({kDirectChannelThreshold, kDirectChannelThreshold, 7, 5}));
  CHECK(uses_direct_path({1, 1, 1, 1}));
  CHECK(uses_direct_path({17, 3, 5, 19}));  // the conformance suite's small shapes
}

TEST_CASE("direct path on conv1 and conv5: every output a plain FP32 dot product") {
  check_direct({"conv1", 2, 3, 32, 32, 256}, true);
  check_direct({"conv5", 2, 256, 32, 32, 3}, false);
}

TEST_CASE("direct path on odd shapes, channel groups and batches") {
  const Layer layers[] = {
      {"odd1", 1, 1, 7, 5, 4},   {"odd2", 3, 5, 9, 12, 7},   {"1x1", 3, 2, 1, 1, 2},
      {"odd3", 1, 17, 5, 19, 3}, {"wide17", 2, 3, 3, 6, 17},  // two groups of 16, one partial
      {"b257", 257, 3, 6, 5, 4}, {"b1", 1, 15, 4, 4, 33},    {"col2", 2, 2, 5, 2, 16}};
  for (const Layer& l : layers) {
    check_direct(l, false);
    check_direct(l, true);
  }
}

TEST_CASE("direct weight gradient in several passes (the last one short) and one per image") {
  const Layer narrow_in{"pass_c", 5, 2, 6, 7, 20}, narrow_out{"pass_o", 5, 20, 7, 6, 3};
  for (const Layer& l : {narrow_in, narrow_out}) {
    check_direct(l, true, 2);
    check_direct(l, false, 1);
  }
}

TEST_CASE("weight-gradient plan: the narrow side is im2col'd, passes fit the budget") {
  const cae_plugin::ConvDims conv1{256, 3, 32, 32, 256, 3}, conv5{256, 256, 32, 32, 3, 3};
  const FilterGradientPlan p1 = plan_filter_gradient(conv1, LaunchParams{});
  CHECK(p1.narrow_input);
  CHECK(p1.narrow == 3);
  CHECK(p1.wide == 256);
  CHECK(p1.images == 256);  // one batched GEMM for the whole batch
  CHECK(p1.bias_in_gemm);   // x's im2col carries a ones row: db from the GEMM
  CHECK(p1.rows == 28);
  CHECK(p1.col_floats == 256 * 28 * 1024);
  CHECK(p1.partial_floats == 256 * 256 * 28);
  const FilterGradientPlan p5 = plan_filter_gradient(conv5, LaunchParams{});
  CHECK(!p5.narrow_input);
  CHECK(p5.narrow == 3);
  CHECK(p5.wide == 256);
  CHECK(!p5.bias_in_gemm);  // dy is the narrow side: db by its plane sums
  CHECK(p5.rows == 27);
  // A batch whose im2col exceeds the pass budget runs in several passes.
  const cae_plugin::ConvDims huge{100000, 3, 32, 32, 256, 3};
  const FilterGradientPlan ph = plan_filter_gradient(huge, LaunchParams{});
  CHECK(ph.images < huge.N);
  CHECK(ph.workspace() <= kWorkspaceBudgetFloats);
}

}  // namespace
