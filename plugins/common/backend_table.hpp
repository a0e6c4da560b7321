// The members of cae_backend_table as ONE list, and the two macros every
// backend builds its ABI surface from:
//
//   namespace my_backend {
//   CAE_DECLARE_BACKEND_MEMBERS();  // prototypes of all 27 members
//   }
//   ...define each member in namespace my_backend...
//   CAE_DEFINE_BACKEND_ENTRY(my_backend, "name", "1.0.0", "one-line description");
//
// Why: without it every backend re-declared the 27 prototypes and filled its
// table by hand, so an ABI change (a member appended in a minor version) had
// to be repeated, identically, in each of them. Now a new member is added to
// CAE_BACKEND_TABLE_MEMBERS and nowhere else; a backend that does not define
// it then fails to link instead of silently leaving the slot NULL. The checks
// at the end of this file fail the build when the list drifts from the header.
#pragma once

#include <cae/backend.h>

#include <cstddef>
#include <type_traits>

// X(return_type, name, (parameter list)) for every member of cae_backend_table,
// in header order, with exactly the signatures of api/cae/backend.h.
#define CAE_BACKEND_TABLE_MEMBERS(X)                                                               \
  X(cae_status, probe, (cae_probe_result * out))                                                   \
  X(cae_status, create, (const cae_create_options* options, cae_context* out))                     \
  X(void, destroy, (cae_context ctx))                                                              \
  X(const char*, last_error, (cae_context ctx))                                                    \
  X(cae_status, device_info, (cae_context ctx, cae_device_info * out))                             \
  X(cae_status, tensor_alloc,                                                                      \
    (cae_context ctx, int32_t ndim, const int64_t* dims, cae_tensor* out))                         \
  X(void, tensor_free, (cae_context ctx, cae_tensor t))                                            \
  X(cae_status, tensor_upload, (cae_context ctx, cae_tensor t, const float* src, size_t count))    \
  X(cae_status, tensor_download, (cae_context ctx, cae_tensor t, float* dst, size_t count))        \
  X(cae_status, conv2d_forward,                                                                    \
    (cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b, cae_tensor y, int32_t fuse_relu))  \
  X(cae_status, conv2d_backward,                                                                   \
    (cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy, cae_tensor dx, cae_tensor dw,     \
     cae_tensor db))                                                                               \
  X(cae_status, relu_forward, (cae_context ctx, cae_tensor x, cae_tensor y))                       \
  X(cae_status, relu_backward, (cae_context ctx, cae_tensor y, cae_tensor dy, cae_tensor dx))      \
  X(cae_status, maxpool2x2_forward, (cae_context ctx, cae_tensor x, cae_tensor y))                 \
  X(cae_status, maxpool2x2_backward,                                                               \
    (cae_context ctx, cae_tensor x, cae_tensor dy, cae_tensor dx))                                 \
  X(cae_status, upsample2x_forward, (cae_context ctx, cae_tensor x, cae_tensor y))                 \
  X(cae_status, upsample2x_backward, (cae_context ctx, cae_tensor dy, cae_tensor dx))              \
  X(cae_status, mse_loss,                                                                          \
    (cae_context ctx, cae_tensor pred, cae_tensor target, cae_tensor loss, cae_tensor grad))       \
  X(cae_status, sgd_step,                                                                          \
    (cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor velocity, float learning_rate, \
     float momentum, float weight_decay))                                                          \
  X(cae_status, adam_step,                                                                         \
    (cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m, cae_tensor v,               \
     const cae_adam_params* params))                                                               \
  X(cae_status, kernel_matrix,                                                                     \
    (cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor k, int32_t kind, float gamma))        \
  X(cae_status, synchronize, (cae_context ctx))                                                    \
  X(cae_status, timer_start, (cae_context ctx))                                                    \
  X(cae_status, timer_stop, (cae_context ctx, double* elapsed_ms))                                 \
  X(cae_status, memory_stats, (cae_context ctx, uint64_t * in_use_bytes, uint64_t * peak_bytes))

// The optional collectives of ABI 1.1 (a group of contexts). A backend that
// implements them declares them with CAE_DECLARE_BACKEND_GROUP_MEMBERS() and
// fills its table with CAE_DEFINE_BACKEND_ENTRY_WITH_GROUP; one that does not
// leaves them NULL (the host then sums through host memory).
#define CAE_BACKEND_GROUP_MEMBERS(X)                                                               \
  X(cae_status, group_create, (const cae_context* contexts, int32_t count, cae_group* out))        \
  X(cae_status, group_all_reduce_sum,                                                              \
    (cae_group group, const cae_tensor* tensors, int32_t tensors_per_context, float scale))        \
  X(void, group_destroy, (cae_group group))

// The optional members of ABI 1.2 (groups that span processes, one context
// each). Only a backend with the 1.1 group members provides them: it declares
// them with CAE_DECLARE_BACKEND_PROCESS_GROUP_MEMBERS() and fills its table
// with CAE_DEFINE_BACKEND_ENTRY_WITH(..., CAE_GROUP_MEMBER_SET CAE_PROCESS_GROUP_MEMBER_SET).
#define CAE_BACKEND_PROCESS_GROUP_MEMBERS(X)                                                       \
  X(cae_status, group_unique_id, (size_t * bytes, void* out))                                      \
  X(cae_status, group_join,                                                                        \
    (cae_context ctx, int32_t rank, int32_t world, const void* id, size_t bytes, cae_group* out))

// ABI 1.7's bounded join, at the table's end. It belongs to the process-group
// set: CAE_DECLARE_BACKEND_PROCESS_GROUP_MEMBERS declares it and
// CAE_PROCESS_GROUP_MEMBER_SET fills it, so a backend that joins groups of
// processes bounds the join too.
#define CAE_BACKEND_BOUNDED_JOIN_MEMBERS(X)                                                        \
  X(cae_status, group_join_within,                                                                 \
    (cae_context ctx, int32_t rank, int32_t world, const void* id, size_t bytes,                   \
     int64_t timeout_ms, cae_group* out))

// The optional members of ABI 1.3 (page-locked host memory). A backend that
// offers them declares them with CAE_DECLARE_BACKEND_HOST_MEMORY_MEMBERS().
#define CAE_BACKEND_HOST_MEMORY_MEMBERS(X)                                                         \
  X(cae_status, host_alloc, (cae_context ctx, size_t bytes, void** out))                           \
  X(void, host_free, (cae_context ctx, void* ptr))

// The optional members of ABI 1.4 (declared options). A backend that declares
// options builds them with backend_options.hpp and names
// CAE_OPTIONS_MEMBER_SET in CAE_DEFINE_BACKEND_ENTRY_WITH.
#define CAE_BACKEND_OPTIONS_MEMBERS(X)                                                             \
  X(int32_t, option_count, ())                                                                     \
  X(cae_status, option_describe, (int32_t index, cae_option_desc * out))                           \
  X(cae_status, create_with_options,                                                               \
    (const cae_create_options* options, const cae_option_value* values, int32_t count,             \
     cae_context* out))

// The optional members of ABI 1.5 (graphs). A backend that runs graphs
// through plugins/common/graph_interpreter.hpp defines them with
// CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS() in its namespace; one with its own
// compiler declares them with CAE_DECLARE_BACKEND_GRAPH_MEMBERS(). Either
// names CAE_GRAPH_MEMBER_SET in CAE_DEFINE_BACKEND_ENTRY_WITH.
#define CAE_BACKEND_GRAPH_MEMBERS(X)                                                               \
  X(cae_status, graph_compile, (cae_context ctx, const cae_graph_desc* desc, cae_graph* out))      \
  X(cae_status, graph_run,                                                                         \
    (cae_context ctx, cae_graph graph, const cae_tensor* bindings, int32_t binding_count,          \
     const cae_graph_run_params* params))                                                          \
  X(void, graph_destroy, (cae_context ctx, cae_graph graph))

// ABI 1.8's SVM dual solver. A backend that solves the kernel SVM's class
// pairs declares it with CAE_DECLARE_BACKEND_SVM_SOLVER_MEMBERS() and names
// CAE_SVM_SOLVER_MEMBER_SET in CAE_DEFINE_BACKEND_ENTRY_WITH.
#define CAE_BACKEND_SVM_SOLVER_MEMBERS(X) \
  X(cae_status, svm_dual_solve, (cae_context ctx, cae_svm_dual_problem * problems, int32_t count))

// ABI 1.10's RBF kernel from the linear one. A backend whose RBF kernel is
// its linear product plus an element-wise pass declares it with
// CAE_DECLARE_BACKEND_KERNEL_REUSE_MEMBERS() and names
// CAE_KERNEL_REUSE_MEMBER_SET in CAE_DEFINE_BACKEND_ENTRY_WITH.
#define CAE_BACKEND_KERNEL_REUSE_MEMBERS(X)                                     \
  X(cae_status, kernel_rbf_from_linear,                                         \
    (cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor linear, cae_tensor k, float gamma))

// ABI 1.11's linear classifier loss. A backend that computes it declares it
// with CAE_DECLARE_BACKEND_LINEAR_LOSS_MEMBERS() and names
// CAE_LINEAR_LOSS_MEMBER_SET in CAE_DEFINE_BACKEND_ENTRY_WITH.
#define CAE_BACKEND_LINEAR_LOSS_MEMBERS(X)                                                  \
  X(cae_status, linear_loss,                                                                \
    (cae_context ctx, cae_tensor scores, cae_tensor bias, cae_tensor targets, int32_t kind, \
     float scale, cae_tensor residuals, cae_tensor sums))

// ABI 1.11's transpose, for the linear classifier's rows. A backend that
// offers it declares it with CAE_DECLARE_BACKEND_TRANSPOSE_MEMBERS() and
// names CAE_TRANSPOSE_MEMBER_SET in CAE_DEFINE_BACKEND_ENTRY_WITH.
#define CAE_BACKEND_TRANSPOSE_MEMBERS(X) \
  X(cae_status, transpose, (cae_context ctx, cae_tensor x, cae_tensor y))

// ABI 1.12's input noise. A backend that draws it declares it with
// CAE_DECLARE_BACKEND_NOISE_MEMBERS() and names CAE_NOISE_MEMBER_SET in
// CAE_DEFINE_BACKEND_ENTRY_WITH.
#define CAE_BACKEND_NOISE_MEMBERS(X)                                          \
  X(cae_status, add_normal_noise,                                             \
    (cae_context ctx, cae_tensor x, cae_tensor y, float sigma, uint64_t seed, \
     uint64_t first_index))

// ABI 1.13's encoders' linear part. A backend that computes it declares it
// with CAE_DECLARE_BACKEND_CHANNEL_CODE_MEMBERS() and names
// CAE_CHANNEL_CODE_MEMBER_SET in CAE_DEFINE_BACKEND_ENTRY_WITH.
#define CAE_BACKEND_CHANNEL_CODE_MEMBERS(X) \
  X(cae_status, channel_code,               \
    (cae_context ctx, cae_tensor x, cae_tensor y, int32_t code, float bias, int32_t relu))

#define CAE_BACKEND_MEMBER_PROTOTYPE_(return_type, name, parameters) return_type name parameters;

// Declares every member in the enclosing namespace. Ends in a no-op
// static_assert so that the call takes a semicolon like any declaration.
#define CAE_DECLARE_BACKEND_MEMBERS()                      \
  CAE_BACKEND_TABLE_MEMBERS(CAE_BACKEND_MEMBER_PROTOTYPE_) \
  static_assert(true, "CAE_DECLARE_BACKEND_MEMBERS needs a ';'")

#define CAE_DECLARE_BACKEND_GROUP_MEMBERS()                \
  CAE_BACKEND_GROUP_MEMBERS(CAE_BACKEND_MEMBER_PROTOTYPE_) \
  static_assert(true, "CAE_DECLARE_BACKEND_GROUP_MEMBERS needs a ';'")

#define CAE_DECLARE_BACKEND_PROCESS_GROUP_MEMBERS()                \
  CAE_BACKEND_PROCESS_GROUP_MEMBERS(CAE_BACKEND_MEMBER_PROTOTYPE_) \
  CAE_BACKEND_BOUNDED_JOIN_MEMBERS(CAE_BACKEND_MEMBER_PROTOTYPE_)  \
  static_assert(true, "CAE_DECLARE_BACKEND_PROCESS_GROUP_MEMBERS needs a ';'")

#define CAE_DECLARE_BACKEND_HOST_MEMORY_MEMBERS()                \
  CAE_BACKEND_HOST_MEMORY_MEMBERS(CAE_BACKEND_MEMBER_PROTOTYPE_) \
  static_assert(true, "CAE_DECLARE_BACKEND_HOST_MEMORY_MEMBERS needs a ';'")

#define CAE_DECLARE_BACKEND_GRAPH_MEMBERS()                \
  CAE_BACKEND_GRAPH_MEMBERS(CAE_BACKEND_MEMBER_PROTOTYPE_) \
  static_assert(true, "CAE_DECLARE_BACKEND_GRAPH_MEMBERS needs a ';'")

#define CAE_DECLARE_BACKEND_SVM_SOLVER_MEMBERS()                \
  CAE_BACKEND_SVM_SOLVER_MEMBERS(CAE_BACKEND_MEMBER_PROTOTYPE_) \
  static_assert(true, "CAE_DECLARE_BACKEND_SVM_SOLVER_MEMBERS needs a ';'")

#define CAE_DECLARE_BACKEND_KERNEL_REUSE_MEMBERS()                \
  CAE_BACKEND_KERNEL_REUSE_MEMBERS(CAE_BACKEND_MEMBER_PROTOTYPE_) \
  static_assert(true, "CAE_DECLARE_BACKEND_KERNEL_REUSE_MEMBERS needs a ';'")

#define CAE_DECLARE_BACKEND_LINEAR_LOSS_MEMBERS()                \
  CAE_BACKEND_LINEAR_LOSS_MEMBERS(CAE_BACKEND_MEMBER_PROTOTYPE_) \
  static_assert(true, "CAE_DECLARE_BACKEND_LINEAR_LOSS_MEMBERS needs a ';'")

#define CAE_DECLARE_BACKEND_TRANSPOSE_MEMBERS()                \
  CAE_BACKEND_TRANSPOSE_MEMBERS(CAE_BACKEND_MEMBER_PROTOTYPE_) \
  static_assert(true, "CAE_DECLARE_BACKEND_TRANSPOSE_MEMBERS needs a ';'")

#define CAE_DECLARE_BACKEND_NOISE_MEMBERS()                \
  CAE_BACKEND_NOISE_MEMBERS(CAE_BACKEND_MEMBER_PROTOTYPE_) \
  static_assert(true, "CAE_DECLARE_BACKEND_NOISE_MEMBERS needs a ';'")

#define CAE_DECLARE_BACKEND_CHANNEL_CODE_MEMBERS()                \
  CAE_BACKEND_CHANNEL_CODE_MEMBERS(CAE_BACKEND_MEMBER_PROTOTYPE_) \
  static_assert(true, "CAE_DECLARE_BACKEND_CHANNEL_CODE_MEMBERS needs a ';'")

#define CAE_DECLARE_BACKEND_OPTIONS_MEMBERS()                \
  CAE_BACKEND_OPTIONS_MEMBERS(CAE_BACKEND_MEMBER_PROTOTYPE_) \
  static_assert(true, "CAE_DECLARE_BACKEND_OPTIONS_MEMBERS needs a ';'")

// Assigned by name, so the list's order cannot put a function into the
// wrong slot; a signature that differs from the ABI does not compile.
#define CAE_BACKEND_MEMBER_ASSIGNMENT_(return_type, name, parameters) \
  table.name = backend_members::name;

// At global scope: the backend's constant table, filled from the members of
// namespace `ns`, and the one symbol the library exports. constexpr, so the
// table exists before any code of the library runs (no static-init order, no
// locking on the first call). The table is a full table of the header's
// minor; optional members not named stay NULL ("unsupported").
#define CAE_DEFINE_BACKEND_ENTRY_(ns, backend_name, backend_version, backend_description,   \
                                  group_assignments)                                       \
  namespace {                                                                            \
  constexpr cae_backend_table make_backend_table() {                                     \
    namespace backend_members = ns;                                                      \
    cae_backend_table table{};                                                           \
    table.struct_size = sizeof(cae_backend_table);                                       \
    table.abi_major = CAE_ABI_MAJOR;                                                     \
    table.abi_minor = CAE_ABI_MINOR;                                                     \
    table.name = backend_name;                                                           \
    table.version = backend_version;                                                     \
    table.description = backend_description;                                             \
    CAE_BACKEND_TABLE_MEMBERS(CAE_BACKEND_MEMBER_ASSIGNMENT_)                            \
    group_assignments                                                                    \
    return table;                                                                        \
  }                                                                                      \
  constexpr cae_backend_table kBackendTable = make_backend_table();                      \
  }                                                                                      \
  extern "C" CAE_BACKEND_EXPORT const cae_backend_table* cae_backend_get_table(          \
      uint32_t host_abi_major) {                                                         \
    return host_abi_major == CAE_ABI_MAJOR ? &kBackendTable : nullptr;                   \
  }                                                                                      \
  static_assert(true, "CAE_DEFINE_BACKEND_ENTRY needs a ';'")

#define CAE_DEFINE_BACKEND_ENTRY(ns, backend_name, backend_version, backend_description) \
  CAE_DEFINE_BACKEND_ENTRY_(ns, backend_name, backend_version, backend_description, )

// The optional member sets, to name (any of them, space-separated) in
// CAE_DEFINE_BACKEND_ENTRY_WITH: each assigns its members from namespace `ns`.
#define CAE_GROUP_MEMBER_SET CAE_BACKEND_GROUP_MEMBERS(CAE_BACKEND_MEMBER_ASSIGNMENT_)
#define CAE_PROCESS_GROUP_MEMBER_SET                                 \
  CAE_BACKEND_PROCESS_GROUP_MEMBERS(CAE_BACKEND_MEMBER_ASSIGNMENT_) \
  CAE_BACKEND_BOUNDED_JOIN_MEMBERS(CAE_BACKEND_MEMBER_ASSIGNMENT_)
#define CAE_HOST_MEMORY_MEMBER_SET CAE_BACKEND_HOST_MEMORY_MEMBERS(CAE_BACKEND_MEMBER_ASSIGNMENT_)
#define CAE_OPTIONS_MEMBER_SET CAE_BACKEND_OPTIONS_MEMBERS(CAE_BACKEND_MEMBER_ASSIGNMENT_)
#define CAE_GRAPH_MEMBER_SET CAE_BACKEND_GRAPH_MEMBERS(CAE_BACKEND_MEMBER_ASSIGNMENT_)
#define CAE_SVM_SOLVER_MEMBER_SET CAE_BACKEND_SVM_SOLVER_MEMBERS(CAE_BACKEND_MEMBER_ASSIGNMENT_)
#define CAE_KERNEL_REUSE_MEMBER_SET \
  CAE_BACKEND_KERNEL_REUSE_MEMBERS(CAE_BACKEND_MEMBER_ASSIGNMENT_)
#define CAE_LINEAR_LOSS_MEMBER_SET CAE_BACKEND_LINEAR_LOSS_MEMBERS(CAE_BACKEND_MEMBER_ASSIGNMENT_)
#define CAE_TRANSPOSE_MEMBER_SET CAE_BACKEND_TRANSPOSE_MEMBERS(CAE_BACKEND_MEMBER_ASSIGNMENT_)
#define CAE_NOISE_MEMBER_SET CAE_BACKEND_NOISE_MEMBERS(CAE_BACKEND_MEMBER_ASSIGNMENT_)
#define CAE_CHANNEL_CODE_MEMBER_SET CAE_BACKEND_CHANNEL_CODE_MEMBERS(CAE_BACKEND_MEMBER_ASSIGNMENT_)

// The table with the optional member sets named in `member_sets`, e.g.
//   CAE_DEFINE_BACKEND_ENTRY_WITH(my_backend, "name", "1.0.0", "description",
//                                 CAE_GROUP_MEMBER_SET CAE_HOST_MEMORY_MEMBER_SET);
#define CAE_DEFINE_BACKEND_ENTRY_WITH(ns, backend_name, backend_version, backend_description, \
                                      member_sets)                                           \
  CAE_DEFINE_BACKEND_ENTRY_(ns, backend_name, backend_version, backend_description, member_sets)

// The same, with the group members of namespace `ns` in the table.
#define CAE_DEFINE_BACKEND_ENTRY_WITH_GROUP(ns, backend_name, backend_version, \
                                            backend_description)               \
  CAE_DEFINE_BACKEND_ENTRY_WITH(ns, backend_name, backend_version, backend_description, \
                                CAE_GROUP_MEMBER_SET)

// ---- the list must describe the header exactly -------------------------------

namespace cae_plugin {
namespace backend_table_check {

// Each listed signature is exactly the type of the table member of that name.
#define CAE_BACKEND_MEMBER_TYPE_CHECK_(return_type, name, parameters)                              \
  static_assert(std::is_same<decltype(cae_backend_table::name), return_type(*) parameters>::value, \
                "CAE_BACKEND_TABLE_MEMBERS: the signature of '" #name                              \
                "' differs from cae/backend.h");
CAE_BACKEND_TABLE_MEMBERS(CAE_BACKEND_MEMBER_TYPE_CHECK_)
CAE_BACKEND_GROUP_MEMBERS(CAE_BACKEND_MEMBER_TYPE_CHECK_)
CAE_BACKEND_PROCESS_GROUP_MEMBERS(CAE_BACKEND_MEMBER_TYPE_CHECK_)
CAE_BACKEND_HOST_MEMORY_MEMBERS(CAE_BACKEND_MEMBER_TYPE_CHECK_)
CAE_BACKEND_OPTIONS_MEMBERS(CAE_BACKEND_MEMBER_TYPE_CHECK_)
CAE_BACKEND_GRAPH_MEMBERS(CAE_BACKEND_MEMBER_TYPE_CHECK_)
CAE_BACKEND_BOUNDED_JOIN_MEMBERS(CAE_BACKEND_MEMBER_TYPE_CHECK_)
CAE_BACKEND_SVM_SOLVER_MEMBERS(CAE_BACKEND_MEMBER_TYPE_CHECK_)
CAE_BACKEND_KERNEL_REUSE_MEMBERS(CAE_BACKEND_MEMBER_TYPE_CHECK_)
CAE_BACKEND_LINEAR_LOSS_MEMBERS(CAE_BACKEND_MEMBER_TYPE_CHECK_)
CAE_BACKEND_TRANSPOSE_MEMBERS(CAE_BACKEND_MEMBER_TYPE_CHECK_)
CAE_BACKEND_NOISE_MEMBERS(CAE_BACKEND_MEMBER_TYPE_CHECK_)
CAE_BACKEND_CHANNEL_CODE_MEMBERS(CAE_BACKEND_MEMBER_TYPE_CHECK_)
#undef CAE_BACKEND_MEMBER_TYPE_CHECK_

#define CAE_BACKEND_MEMBER_OFFSET_(return_type, name, parameters) offsetof(cae_backend_table, name),
// One member set per line (clang-format would fold the list otherwise).
// clang-format off
constexpr size_t kListedOffsets[] = {
    CAE_BACKEND_TABLE_MEMBERS(CAE_BACKEND_MEMBER_OFFSET_)
    CAE_BACKEND_GROUP_MEMBERS(CAE_BACKEND_MEMBER_OFFSET_)
    CAE_BACKEND_PROCESS_GROUP_MEMBERS(CAE_BACKEND_MEMBER_OFFSET_)
    CAE_BACKEND_HOST_MEMORY_MEMBERS(CAE_BACKEND_MEMBER_OFFSET_)
    CAE_BACKEND_OPTIONS_MEMBERS(CAE_BACKEND_MEMBER_OFFSET_)
    CAE_BACKEND_GRAPH_MEMBERS(CAE_BACKEND_MEMBER_OFFSET_)
    CAE_BACKEND_BOUNDED_JOIN_MEMBERS(CAE_BACKEND_MEMBER_OFFSET_)
    CAE_BACKEND_SVM_SOLVER_MEMBERS(CAE_BACKEND_MEMBER_OFFSET_)
    CAE_BACKEND_KERNEL_REUSE_MEMBERS(CAE_BACKEND_MEMBER_OFFSET_)
    CAE_BACKEND_LINEAR_LOSS_MEMBERS(CAE_BACKEND_MEMBER_OFFSET_)
    CAE_BACKEND_TRANSPOSE_MEMBERS(CAE_BACKEND_MEMBER_OFFSET_)
    CAE_BACKEND_NOISE_MEMBERS(CAE_BACKEND_MEMBER_OFFSET_)
    CAE_BACKEND_CHANNEL_CODE_MEMBERS(CAE_BACKEND_MEMBER_OFFSET_)};
// clang-format on
#undef CAE_BACKEND_MEMBER_OFFSET_

// True when the listed members follow one another from `probe` to the end of
// the table with no gap and no repetition: the list covers every member, in
// header order, and a member appended to the header but not to the list fails.
constexpr bool list_covers_table() {
  size_t expected = offsetof(cae_backend_table, probe);
  for (size_t offset : kListedOffsets) {
    if (offset != expected) return false;
    expected += sizeof(cae_backend_table::probe);  // every member is a function pointer
  }
  return expected == sizeof(cae_backend_table);
}
static_assert(list_covers_table(),
              "CAE_BACKEND_TABLE_MEMBERS does not list every member of cae_backend_table in "
              "header order");

}  // namespace backend_table_check
}  // namespace cae_plugin
