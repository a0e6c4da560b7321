// The members of the cae_backend_table that v3 and v4 share, and what they share: argument
// access (NULL handles, tensors of another context) and the point where
// deferred work is issued (see deferred_work.hpp).
#pragma once

#include <cae/backend.h>

#include "backend_table.hpp"
#include "cuda_group_entries.hpp"
#include "cuda_lifecycle_entries.hpp"
#include "runtime_context.hpp"

namespace cae_cuda {

// Validates ctx, makes its device current and issues any deferred work.
Context& enter(cae_context ctx, const char* op);
// The same, but leaves deferred work queued: for the calls that may merge with it.
Context& enter_keeping_deferred(cae_context ctx, const char* op);
void flush_deferred(Context& ctx);

cae_tensor_s& tensor_arg(const Context& ctx, cae_tensor t, const char* op, const char* name);
// As tensor_arg, but NULL is allowed (returns nullptr).
cae_tensor_s* optional_tensor_arg(const Context& ctx, cae_tensor t, const char* op,
                                  const char* name);

// The shared CUDA lifecycle (cuda_lifecycle_entries.hpp) of a backend on the
// runtime, with its priority and precision: synchronize and the timer flush
// deferred work first (enter); device_info and memory_stats leave it queued
// (enter_keeping_deferred). Every reduction has a fixed order: deterministic.
template <int32_t kProbePriority, cae_precision kPrecision>
using RuntimeLifecycle =
    cae_plugin::cuda::LifecycleEntries<Context, kProbePriority, kPrecision,
                                       /*kDeterministic=*/true, enter, enter_keeping_deferred>;

// The ABI 1.1 collectives (cuda_group_entries.hpp), after deferred work. The
// all-reduce rewrites its tensors: new versions, so no buffer derived from the
// old contents is reused.
inline void record_all_reduce_write(Context& context, cae_tensor t) { context.wrote(t); }
using RuntimeGroup = cae_plugin::cuda::GroupEntries<Context, enter, record_all_reduce_write>;

namespace entry {

// The members of the table (backend_table.hpp) that the runtime defines: the
// tensor members (entry_tensors.cpp), the layers (entry_layers.cpp) and loss,
// optimisers and kernel matrix (entry_training.cpp). The lifecycle members
// (probe, create, destroy, last_error, device_info, synchronize, timers,
// memory_stats, declared here with the rest), the collectives, host memory
// and the declared options are each backend's: it defines them in its own
// namespace (plugins/v3/v3_backend.cpp, plugins/v4/v4_backend.cpp), which
// takes the members above from here with `using namespace cae_cuda::entry`.
CAE_DECLARE_BACKEND_MEMBERS();
// ABI 1.8's SVM dual solver (entry_svm.cpp), which v3 and v4 both offer.
CAE_DECLARE_BACKEND_SVM_SOLVER_MEMBERS();
// ABI 1.10's RBF kernel from the linear one (entry_training.cpp).
CAE_DECLARE_BACKEND_KERNEL_REUSE_MEMBERS();
// ABI 1.11's linear classifier loss (entry_training.cpp).
CAE_DECLARE_BACKEND_LINEAR_LOSS_MEMBERS();
// ABI 1.11's transpose (entry_tensors.cpp).
CAE_DECLARE_BACKEND_TRANSPOSE_MEMBERS();
// ABI 1.12's input noise (entry_tensors.cpp).
CAE_DECLARE_BACKEND_NOISE_MEMBERS();
// ABI 1.13's encoders' linear part (entry_tensors.cpp).
CAE_DECLARE_BACKEND_CHANNEL_CODE_MEMBERS();

}  // namespace entry
}  // namespace cae_cuda
