// The C entry points of the naive backend, as gathered into its table by
// naive_backend.cpp. Each one catches everything (cae_plugin::guard), checks
// its handles and shapes, and hands the work to the ops in naive_ops.hpp.
#pragma once

#include <cae/backend.h>

#include "naive_context.hpp"

namespace naive {

// The context behind a handle passed to `op`, made current on this thread
// (a context may live on another device than the last one used here).
cae_context_s& use_context(cae_context ctx, const char* op);

namespace entry {

// naive_tensor_entry_points.cpp
cae_status tensor_alloc(cae_context ctx, int32_t ndim, const int64_t* dims, cae_tensor* out);
void tensor_free(cae_context ctx, cae_tensor t);
cae_status tensor_upload(cae_context ctx, cae_tensor t, const float* src, size_t count);
cae_status tensor_download(cae_context ctx, cae_tensor t, float* dst, size_t count);

// naive_op_entry_points.cpp
cae_status conv2d_forward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b, cae_tensor y,
                          int32_t fuse_relu);
cae_status conv2d_backward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy,
                           cae_tensor dx, cae_tensor dw, cae_tensor db);
cae_status relu_forward(cae_context ctx, cae_tensor x, cae_tensor y);
cae_status relu_backward(cae_context ctx, cae_tensor y, cae_tensor dy, cae_tensor dx);
cae_status maxpool2x2_forward(cae_context ctx, cae_tensor x, cae_tensor y);
cae_status maxpool2x2_backward(cae_context ctx, cae_tensor x, cae_tensor dy, cae_tensor dx);
cae_status upsample2x_forward(cae_context ctx, cae_tensor x, cae_tensor y);
cae_status upsample2x_backward(cae_context ctx, cae_tensor dy, cae_tensor dx);
cae_status mse_loss(cae_context ctx, cae_tensor pred, cae_tensor target, cae_tensor loss,
                    cae_tensor grad);
cae_status sgd_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor velocity,
                    float learning_rate, float momentum, float weight_decay);
cae_status adam_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m, cae_tensor v,
                     const cae_adam_params* params);
cae_status kernel_matrix(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor k, int32_t kind,
                         float gamma);

}  // namespace entry
}  // namespace naive
