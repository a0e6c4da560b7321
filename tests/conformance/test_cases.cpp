// The suite's table of contents: one doctest TEST_CASE per op of
// api/cae/backend.h, in the header's order, then error handling and memory.
// --filter OP selects test cases by these names.
#include <doctest/doctest.h>

#include "checks.hpp"

using namespace conformance;

TEST_CASE("backend") { check_backend(); }
TEST_CASE("conv2d_forward") { check_conv2d_forward(); }
TEST_CASE("conv2d_backward") { check_conv2d_backward(); }
TEST_CASE("relu_forward") { check_relu_forward(); }
TEST_CASE("relu_backward") { check_relu_backward(); }
TEST_CASE("maxpool2x2_forward") { check_maxpool2x2_forward(); }
TEST_CASE("maxpool2x2_backward") { check_maxpool2x2_backward(); }
TEST_CASE("upsample2x_forward") { check_upsample2x_forward(); }
TEST_CASE("upsample2x_backward") { check_upsample2x_backward(); }
TEST_CASE("mse_loss") { check_mse_loss(); }
TEST_CASE("sgd_step") { check_sgd_step(); }
TEST_CASE("adam_step") { check_adam_step(); }
TEST_CASE("kernel_matrix") { check_kernel_matrix(); }
TEST_CASE("svm_dual_solve") { check_svm_dual(); }
TEST_CASE("kernel_rbf_from_linear") { check_kernel_rbf_from_linear(); }
TEST_CASE("linear_loss") { check_linear_loss(); }
TEST_CASE("transpose") { check_transpose(); }
TEST_CASE("errors") { check_errors(); }
TEST_CASE("memory") { check_memory(); }
TEST_CASE("group") { check_group(); }
TEST_CASE("process group") { check_process_group(); }
TEST_CASE("host memory") { check_host_memory(); }
TEST_CASE("options") { check_options(); }
TEST_CASE("graphs") { check_graphs(); }
// Their own cases, named so that --filter graphs (the mutants' sweeps, a
// sanitizer's quicker pass) leaves out these larger runs, and
// --filter graph_real_shapes (a mutant whose bug only large images show)
// the largest: at the host's batches up to 256 they are most of a run.
TEST_CASE("graph_real_shapes") { check_graph_real_shapes(); }
TEST_CASE("graph_real_batches") { check_graph_real_batches(); }
// Its own case so that --filter can run the two-context steps apart from
// the one-context graphs (a sanitizer over both outruns one time limit).
TEST_CASE("graph_exchanges") { check_graph_exchanges(); }
