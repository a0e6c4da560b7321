// Host-only tests of the winograd backend (no GPU needed):
//  - the F(4x4,3x3) identities of B^T, G, A^T in double: forward and the
//    weight gradient's adjoint form;
//  - the backend's own forward and backward steps (winograd_conv_passes.hpp:
//    the same items, layouts, GEMM calls and pass splitting the GPU runs) on
//    a host executor that emulates cuBLAS in float32, on the model's real
//    layer shapes and on odd shapes with partial tiles and several passes,
//    against a float64 direct convolution, with the conformance suite's FP32
//    bound;
//  - the tuning table's lookup, override parsing and pass sizing.
// conv1 and conv5 run by the direct path on the GPU (winograd_direct_test.cpp);
// the Winograd steps are still checked on them here, as the error record of
// the method on 3-channel layers (README.md, "Precision and conformance").
// Shared test code: winograd_test_support.hpp.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include "plugin_support.hpp"
#include "winograd_conv_passes.hpp"
#include "winograd_test_support.hpp"
#include "winograd_tuning_table.hpp"

namespace {

using namespace cae_winograd;
using namespace winograd_test;

// ---- the identities in double -------------------------------------------------

TEST_CASE("F(4x4,3x3) forward identity: A^T[(G g G^T) .* (B^T d B)]A is the valid correlation") {
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    double d[6][6], g[3][3], v[6][6], u[6][6], m[6][6], y[4][4];
    for (auto& row : d)
      for (double& e : row) e = value(rng);
    for (auto& row : g)
      for (double& e : row) e = value(rng);
    input_transform(d, v);
    filter_transform(g, u);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) m[i][j] = u[i][j] * v[i][j];
    output_transform(m, y);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        double want = 0.0;
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s) want += d[i + r][j + s] * g[r][s];
        CHECK(std::abs(y[i][j] - want) <= 1e-12);
      }
  }
}

TEST_CASE("F(4x4,3x3) weight-gradient identity: G^T[(A dy A^T) .* (B^T d B)]G = corr(d, dy)") {
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    double d[6][6], dy[4][4], v[6][6], e[6][6], du[6][6], dw[3][3];
    for (auto& row : d)
      for (double& x : row) x = value(rng);
    for (auto& row : dy)
      for (double& x : row) x = value(rng);
    input_transform(d, v);
    output_gradient_transform(dy, e);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) du[i][j] = e[i][j] * v[i][j];
    filter_gradient_transform(du, dw);
    for (int r = 0; r < 3; ++r)
      for (int s = 0; s < 3; ++s) {
        double want = 0.0;
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 4; ++j) want += dy[i][j] * d[i + r][j + s];
        CHECK(std::abs(dw[r][s] - want) <= 1e-12);
      }
  }
}

// ---- float32 simulation of the GPU's method vs float64 --------------------------

// The backend's forward and backward steps, as the GPU sequences them, on the
// host. Workspace and outputs start as NaN: a step that reads what no step
// wrote, or an output element left unwritten, shows up as a NaN.
Results run_method(const Layer& l, const FloatVec& x, const FloatVec& w, const FloatVec& b,
                   const FloatVec& dy, bool relu, int64_t images_per_chunk) {
  const cae_plugin::ConvDims d{l.n, l.c, l.h, l.w, l.o, 3};
  LaunchParams params;
  params.images_per_chunk = images_per_chunk;
  const PassPlan plan = plan_passes(d, params);
  const float nan = std::nanf("");
  HostExecutor exec;
  FloatVec u(static_cast<size_t>(plan.filter_floats), nan), u_flipped = u;
  transform_filter(exec, d, 256, w.data(), u.data(), false);
  transform_filter(exec, d, 256, w.data(), u_flipped.data(), true);
  Results r;
  r.y.assign(dy.size(), nan);
  r.dx.assign(x.size(), nan);
  r.dw.assign(w.size(), nan);
  FloatVec workspace(static_cast<size_t>(plan.forward_workspace()), nan);
  forward_passes(exec, d, plan, 256, x.data(), u.data(), b.data(), r.y.data(), relu,
                 workspace.data());
  workspace.assign(static_cast<size_t>(plan.backward_workspace()), nan);
  backward_passes(exec, d, plan, 256, x.data(), u_flipped.data(), dy.data(), r.dx.data(),
                  r.dw.data(), workspace.data());
  return r;
}

void check_layer(const Layer& l, bool relu, int64_t images_per_chunk = 0) {
  const LayerData in = make_layer_data(l);
  const Reference ref = direct(l, in.x, in.w, in.b, in.dy, relu);
  const Results got = run_method(l, in.x, in.w, in.b, in.dy, relu, images_per_chunk);
  const BoundShares shares = measure("winograd", l, images_per_chunk, got, ref);
  INFO(l.name);
  CHECK(shares.y <= 1.0);
  CHECK(shares.dx <= 1.0);
  CHECK(shares.dw <= 1.0);
}

TEST_CASE("float32 Winograd on the model's layers stays within the FP32 conformance bound") {
  // conv1..conv5 at the conformance suite's batch 2.
  const Layer layers[] = {{"conv1", 2, 3, 32, 32, 256},
                          {"conv2", 2, 256, 16, 16, 128},
                          {"conv3", 2, 128, 8, 8, 128},
                          {"conv4", 2, 128, 16, 16, 256},
                          {"conv5", 2, 256, 32, 32, 3}};
  for (const Layer& l : layers) check_layer(l, std::string(l.name) != "conv5");
}

TEST_CASE("partial tiles and passes: odd sizes, a 1x1 image, batches split into chunks") {
  const Layer layers[] = {{"odd1", 1, 1, 7, 5, 4},
                          {"odd2", 3, 5, 9, 12, 7},
                          {"1x1", 3, 2, 1, 1, 2},
                          {"odd3", 1, 17, 5, 19, 3},
                          {"batch", 5, 4, 6, 5, 3}};
  for (const Layer& l : layers) {
    check_layer(l, false);
    check_layer(l, true);
    // Several passes, the last one short (5 images in chunks of 2), and one
    // image per pass: dw accumulates over passes (GEMM beta 1).
    check_layer(l, true, 2);
    check_layer(l, false, 1);
  }
}

// ---- tuning table -------------------------------------------------------------

cae_status status_of(const char* name, const char* value) {
  const cae_option_value chosen[] = {{name, value}};
  try {
    launch_override(chosen, 1);
  } catch (const cae_plugin::Error& e) {
    return e.status();
  }
  return CAE_STATUS_OK;
}

LaunchParams overridden(const LaunchParams& params, const cae_option_value* values, int count) {
  return apply_override(params, launch_override(values, count));
}

TEST_CASE("tuning table: measured shapes, default, override, pass sizing") {
  const LaunchParams conv3 = lookup_launch_params({128, 128, 8, 8});
  CHECK(conv3.transform_threads == 128);
  const LaunchParams unknown = lookup_launch_params({7, 9, 11, 13});
  CHECK(unknown.transform_threads == LaunchParams{}.transform_threads);
  CHECK(unknown.images_per_chunk == LaunchParams{}.images_per_chunk);

  const LaunchParams table = overridden(conv3, nullptr, 0);  // the defaults keep the table
  CHECK(table.transform_threads == conv3.transform_threads);
  CHECK(table.images_per_chunk == conv3.images_per_chunk);
  const cae_option_value both_values[] = {{"transform-warps", "16"}, {"images-per-pass", "16"}};
  const LaunchParams both = overridden(conv3, both_values, 2);
  CHECK(both.transform_threads == 512);
  CHECK(both.images_per_chunk == 16);
  const cae_option_value whole_batch[] = {{"images-per-pass", "0"}};
  const LaunchParams only_chunk = overridden(conv3, whole_batch, 1);
  CHECK(only_chunk.transform_threads == 128);
  CHECK(only_chunk.images_per_chunk == 0);
  CHECK(status_of("transform-warps", "33") == CAE_STATUS_INVALID_ARGUMENT);  // over 1024 threads
  CHECK(status_of("transform-warps", "-1") == CAE_STATUS_INVALID_ARGUMENT);
  CHECK(status_of("images-per-pass", "-2") == CAE_STATUS_INVALID_ARGUMENT);
  CHECK(status_of("images-per-pass", "4x") == CAE_STATUS_INVALID_ARGUMENT);
  CHECK(status_of("threads", "256") == CAE_STATUS_UNSUPPORTED);

  LaunchParams whole;  // chunk 0: the whole batch, within the budget
  CHECK(images_per_pass(whole, 256, 100, 1 << 20) == 256);
  CHECK(images_per_pass(whole, 256, 100, 1000) == 10);
  CHECK(images_per_pass(whole, 256, 100, 10) == 1);  // never below one image
  LaunchParams chunked;
  chunked.images_per_chunk = 64;
  CHECK(images_per_pass(chunked, 257, 100, 1 << 20) == 64);
  CHECK(images_per_pass(chunked, 5, 100, 1 << 20) == 5);
}

}  // namespace
