// The suite's table of contents: one doctest TEST_CASE per op of
// api/cae/backend.h, in the header's order, then error handling and memory.
// --filter OP selects test cases by these names; --shard K/J every J-th of
// them (in_shard, suite.hpp).
#include <doctest/doctest.h>

#include "checks.hpp"
#include "suite.hpp"

using namespace conformance;

TEST_CASE("backend") {
  if (in_shard()) check_backend();
}
TEST_CASE("conv2d_forward") {
  if (in_shard()) check_conv2d_forward();
}
TEST_CASE("conv2d_backward") {
  if (in_shard()) check_conv2d_backward();
}
TEST_CASE("relu_forward") {
  if (in_shard()) check_relu_forward();
}
TEST_CASE("relu_backward") {
  if (in_shard()) check_relu_backward();
}
TEST_CASE("maxpool2x2_forward") {
  if (in_shard()) check_maxpool2x2_forward();
}
TEST_CASE("maxpool2x2_backward") {
  if (in_shard()) check_maxpool2x2_backward();
}
TEST_CASE("upsample2x_forward") {
  if (in_shard()) check_upsample2x_forward();
}
TEST_CASE("upsample2x_backward") {
  if (in_shard()) check_upsample2x_backward();
}
TEST_CASE("mse_loss") {
  if (in_shard()) check_mse_loss();
}
TEST_CASE("sgd_step") {
  if (in_shard()) check_sgd_step();
}
TEST_CASE("adam_step") {
  if (in_shard()) check_adam_step();
}
TEST_CASE("kernel_matrix") {
  if (in_shard()) check_kernel_matrix();
}
TEST_CASE("svm_dual_solve") {
  if (in_shard()) check_svm_dual();
}
TEST_CASE("kernel_rbf_from_linear") {
  if (in_shard()) check_kernel_rbf_from_linear();
}
TEST_CASE("linear_loss") {
  if (in_shard()) check_linear_loss();
}
TEST_CASE("transpose") {
  if (in_shard()) check_transpose();
}
TEST_CASE("add_normal_noise") {
  if (in_shard()) check_noise();
}
TEST_CASE("channel_code") {
  if (in_shard()) check_channel_code();
}
TEST_CASE("errors") {
  if (in_shard()) check_errors();
}
TEST_CASE("memory") {
  if (in_shard()) check_memory();
}
TEST_CASE("group") {
  if (in_shard()) check_group();
}
TEST_CASE("process group") {
  if (in_shard()) check_process_group();
}
TEST_CASE("host memory") {
  if (in_shard()) check_host_memory();
}
TEST_CASE("options") {
  if (in_shard()) check_options();
}
TEST_CASE("graphs") {
  if (in_shard()) check_graphs();
}
// Their own cases, named so that --filter graphs (the mutants' sweeps, a
// sanitizer's quicker pass) leaves out these larger runs, and
// --filter graph_real_shapes (a mutant whose bug only large images show)
// the largest: at the host's batches up to 256 they are most of a run.
TEST_CASE("graph_real_shapes") {
  if (in_shard()) check_graph_real_shapes();
}
TEST_CASE("graph_real_batches") {
  if (in_shard()) check_graph_real_batches();
}
// Its own case so that --filter can run the two-context steps apart from
// the one-context graphs (a sanitizer over both outruns one time limit).
TEST_CASE("graph_exchanges") {
  if (in_shard()) check_graph_exchanges();
}
