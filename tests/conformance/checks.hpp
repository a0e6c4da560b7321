// The checks of each op, one function per op (each in check_<op>.cpp). They
// open doctest SUBCASEs, one per shape or variant; test_cases.cpp turns each
// into a TEST_CASE, in the order of the ABI.
#pragma once

namespace conformance {

void check_backend();  // table, probe, device_info, last_error, synchronize, optional members
void check_conv2d_forward();
void check_conv2d_backward();
void check_relu_forward();
void check_relu_backward();
void check_maxpool2x2_forward();
void check_maxpool2x2_backward();
void check_upsample2x_forward();
void check_upsample2x_backward();
void check_mse_loss();
void check_sgd_step();
void check_adam_step();
void check_kernel_matrix();
void check_svm_dual();  // ABI 1.8 SVM dual solver, when provided
void check_kernel_rbf_from_linear();  // ABI 1.10 RBF kernel from the linear one, when provided
void check_linear_loss();             // ABI 1.11 linear classifier loss, when provided
void check_transpose();               // ABI 1.11 transpose, when provided
void check_noise();                   // ABI 1.12 add_normal_noise, when provided
void check_channel_code();            // ABI 1.13 channel_code, when provided
void check_errors();  // invalid arguments are refused with a message
void check_memory();  // destroy frees everything
void check_group();   // ABI 1.1 collectives, when provided
void check_process_group();  // ABI 1.2 groups of processes, when provided
void check_host_memory();    // ABI 1.3 page-locked host memory, when provided
void check_options();        // ABI 1.4 declared options, when provided
void check_graphs();         // ABI 1.5 graphs, when provided
void check_graph_real_shapes();   // the same, the seed network at 3x32x32, one image
void check_graph_real_batches();  // the same at the host's larger batches
void check_graph_exchanges();  // ABI 1.6 steps whose graphs exchange gradients over two contexts

}  // namespace conformance
