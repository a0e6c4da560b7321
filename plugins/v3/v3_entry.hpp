// The members of v3's cae_backend_table, and what they share: argument
// access (NULL handles, tensors of another context) and the point where
// deferred work is issued (see v3_deferred.hpp).
#pragma once

#include <cae/backend.h>

#include "v3_context.hpp"

namespace cae_v3 {

// Validates ctx, makes its device current and issues any deferred work.
Context& enter(cae_context ctx, const char* op);
// The same, but leaves deferred work queued: for the calls that may merge with it.
Context& enter_keeping_deferred(cae_context ctx, const char* op);
void flush_deferred(Context& ctx);

cae_tensor_s& tensor_arg(const Context& ctx, cae_tensor t, const char* op, const char* name);
// As tensor_arg, but NULL is allowed (returns nullptr).
cae_tensor_s* optional_tensor_arg(const Context& ctx, cae_tensor t, const char* op,
                                  const char* name);

namespace entry {

// v3_entry_lifecycle.cpp
cae_status probe(cae_probe_result* out);
cae_status create(const cae_create_options* options, cae_context* out);
void destroy(cae_context ctx);
const char* last_error(cae_context ctx);
cae_status device_info(cae_context ctx, cae_device_info* out);
cae_status synchronize(cae_context ctx);
cae_status timer_start(cae_context ctx);
cae_status timer_stop(cae_context ctx, double* elapsed_ms);
cae_status memory_stats(cae_context ctx, uint64_t* in_use_bytes, uint64_t* peak_bytes);

// v3_entry_tensors.cpp
cae_status tensor_alloc(cae_context ctx, int32_t ndim, const int64_t* dims, cae_tensor* out);
void tensor_free(cae_context ctx, cae_tensor t);
cae_status tensor_upload(cae_context ctx, cae_tensor t, const float* src, size_t count);
cae_status tensor_download(cae_context ctx, cae_tensor t, float* dst, size_t count);

// v3_entry_layers.cpp
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

// v3_entry_training.cpp
cae_status mse_loss(cae_context ctx, cae_tensor pred, cae_tensor target, cae_tensor loss,
                    cae_tensor grad);
cae_status sgd_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor velocity,
                    float learning_rate, float momentum, float weight_decay);
cae_status adam_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m, cae_tensor v,
                     const cae_adam_params* params);
cae_status kernel_matrix(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor k, int32_t kind,
                         float gamma);

}  // namespace entry
}  // namespace cae_v3
