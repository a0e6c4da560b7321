/*
 * cae/backend.h — the stable C ABI between the cae host and its compute backends.
 *
 * This is the ONLY header a backend includes, and the only place where host and
 * backend meet. It is plain C (C99 and C++ compatible): nothing C++ crosses the
 * boundary, and every entry point of a backend catches everything and returns a
 * status instead of throwing.
 *
 * Versioning (see docs/abi.md)
 * ----------------------------
 *   - A backend exports exactly one symbol, CAE_BACKEND_ENTRY_SYMBOL, of type
 *     cae_backend_entry_fn. The host calls it with the ABI major it speaks; the
 *     backend returns a pointer to a constant, statically allocated table for
 *     that major, or NULL if it cannot serve it.
 *   - The table starts with struct_size, abi_major, abi_minor. A minor version
 *     only APPENDS members; a major version may change anything.
 *   - The host refuses a table of another major, refuses a table smaller than
 *     CAE_BACKEND_TABLE_MIN_SIZE, and treats a member that lies beyond
 *     struct_size, or that is NULL, as "unsupported". It never calls either.
 *   - Out-structs (cae_probe_result, cae_device_info, ...) also start with
 *     struct_size, set by the CALLER. The callee writes only the members that
 *     fit inside that size, so old hosts and new backends (and vice versa) agree.
 *
 * Data model
 * ----------
 *   - cae_context and cae_tensor are opaque handles owned by the backend.
 *   - At the boundary every tensor is float32, dense, row-major: activations
 *     NCHW, conv weights OIHW, biases [O], matrices [rows, cols]. Inside, a
 *     backend may keep any layout (NHWC, padded, bf16 copies...): it converts
 *     in tensor_upload / tensor_download.
 *   - Shapes are fixed at allocation (1 to CAE_MAX_DIMS dimensions). Every op
 *     reads its shapes from the tensors it is given and returns
 *     CAE_STATUS_INVALID_ARGUMENT (with a message naming the mismatch) when
 *     they do not fit the op's contract.
 *   - Unless a member says otherwise, output tensors are fully OVERWRITTEN
 *     (never accumulated into) and no two tensor arguments of one call may
 *     alias. Where aliasing is allowed, the member says so.
 *
 * Errors
 * ------
 *   Every member that can fail returns cae_status. On failure,
 *   last_error(ctx) returns a human-readable message for the most recent failed
 *   call on that context (for CAE_STATUS_OUT_OF_MEMORY it names the size that
 *   could not be allocated). Calls that have no context (probe, create) report
 *   through last_error(NULL), which is per calling thread.
 *
 * Threading
 * ---------
 *   A context is used by one thread at a time; the host never calls into one
 *   context from two threads concurrently. Several contexts (for example one
 *   per GPU) may coexist and be used from different threads at once. probe,
 *   create and the entry function are safe to call from any thread.
 *
 * Asynchrony
 * ----------
 *   Ops may be asynchronous with respect to the host (queued on a device
 *   stream). tensor_download, synchronize and timer_stop wait for all work
 *   previously issued on the context. tensor_upload returns only once the host
 *   buffer may be reused. Errors of an asynchronous op may surface at a later
 *   call of the same context.
 */
#ifndef CAE_BACKEND_H
#define CAE_BACKEND_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- versions ------------------------------------------------------------ */

/* Major: bumped for any change that is not a pure append. The host refuses a
 * table whose major differs from its own. */
#define CAE_ABI_MAJOR 1
/* Minor: bumped when members are appended to cae_backend_table, to a struct
 * it reads, or to an enumeration, or when a member accepts what it used to
 * refuse (1.9: svm_dual_solve's kernel_ba may be NULL). */
#define CAE_ABI_MINOR 13

/* The one exported symbol of every backend shared library. */
#define CAE_BACKEND_ENTRY_SYMBOL "cae_backend_get_table"

#if defined(_WIN32)
#define CAE_BACKEND_EXPORT __declspec(dllexport)
#else
#define CAE_BACKEND_EXPORT __attribute__((visibility("default")))
#endif

#define CAE_MAX_DIMS 4

/* ---- status codes -------------------------------------------------------- */

typedef enum cae_status {
  CAE_STATUS_OK = 0,
  CAE_STATUS_INVALID_ARGUMENT = 1, /* shapes, NULL handles, out-of-range values */
  CAE_STATUS_UNSUPPORTED = 2,      /* valid request this backend does not implement */
  CAE_STATUS_OUT_OF_MEMORY = 3,    /* host or device allocation failed; message names the size */
  CAE_STATUS_DEVICE_ERROR = 4,     /* driver / runtime / library failure; message names the call */
  CAE_STATUS_UNAVAILABLE = 5,      /* the backend cannot run on this machine */
  CAE_STATUS_INTERNAL = 6          /* a bug in the backend: any other failure */
} cae_status;

/* ---- opaque handles ------------------------------------------------------ */

/* The host only passes these pointers back. A backend DEFINES the two structs
 * itself (struct cae_context_s { ... }; struct cae_tensor_s { ... }; in its own
 * sources, with whatever members it needs), so handles stay type-checked in C
 * and C++ without a cast. The host never dereferences them. */
typedef struct cae_context_s* cae_context;
typedef struct cae_tensor_s* cae_tensor;
/* ABI 1.1: a group of contexts of one backend (one per device) that run
 * collectives together; ABI 1.2: also one context in each of several
 * processes. Defined by the backend like the two above. */
typedef struct cae_group_s* cae_group;
/* ABI 1.5: a compiled graph (graph_compile), defined by the backend too. */
typedef struct cae_graph_s* cae_graph;

/* ---- plain-data structs crossing the boundary ---------------------------- */

/* Numeric precision an implementation computes in. It sets the tolerance the
 * conformance suite applies to matrix products (convolutions, kernel_matrix),
 * element by element: |out - ref| <= tol * sum|a||b| over the element's terms,
 * tol = 1e-5 for FP32, 2.5e-3 for TF32 and FP16, 2e-2 for BF16, plus
 * 8 * 2^-24 * sqrt(terms) for the float32 accumulation. Element-wise ops and
 * optimizer steps are float32 whatever the precision (tol 1e-5). docs/abi.md,
 * "What cae-conformance requires", has the rule for every op. */
typedef enum cae_precision {
  CAE_PRECISION_FP32 = 0, /* float32 arithmetic throughout */
  CAE_PRECISION_TF32 = 1, /* TF32 matrix products, float32 accumulation */
  CAE_PRECISION_BF16 = 2, /* BF16 matrix products, float32 accumulation */
  CAE_PRECISION_FP16 = 3  /* FP16 matrix products, float32 accumulation */
} cae_precision;

/* Filled by probe. The caller sets struct_size = sizeof(cae_probe_result). */
typedef struct cae_probe_result {
  uint32_t struct_size;
  int32_t available;    /* 1: create() is expected to succeed; 0: see reason */
  int32_t priority;     /* higher wins when the host picks a default backend */
  int32_t device_count; /* devices this backend could use (1 for a CPU) */
  char reason[256];     /* NUL-terminated; why it is unavailable, "" otherwise */
} cae_probe_result;

/* ABI 1.4: one chosen value of a backend option (create_with_options), both
 * as text, the value in the canonical form of its cae_option_type (below). */
typedef struct cae_option_value {
  const char* name;
  const char* value;
} cae_option_value;

/* Passed to create. The caller sets struct_size = sizeof(cae_create_options). */
typedef struct cae_create_options {
  uint32_t struct_size;
  int32_t device_index; /* which device (0-based); CPU backends ignore it */
  int32_t thread_count; /* host threads a CPU backend may use; 0 = its default */
  int32_t reserved;
} cae_create_options;

/* ABI 1.4: the kind of value a backend option takes, and the canonical text
 * of its values (what cae_option_value.value and default_value hold). */
typedef enum cae_option_type {
  CAE_OPTION_BOOL = 0,  /* "true" or "false" */
  CAE_OPTION_INT = 1,   /* a decimal integer ("-12"), in [min_value, max_value] */
  CAE_OPTION_FLOAT = 2, /* a finite decimal number ("0.25", "1e-3"), in [min_value, max_value] */
  CAE_OPTION_ENUM = 3   /* one of the words of `choices` */
} cae_option_type;

/* ABI 1.4: the declaration of one backend option, filled by option_describe.
 * The caller sets struct_size = sizeof(cae_option_desc). Every string is
 * NUL-terminated and statically allocated: it lives as long as the library. */
typedef struct cae_option_desc {
  uint32_t struct_size;
  int32_t type;              /* cae_option_type */
  const char* name;          /* unique in the backend, lower case, [a-z0-9-]: "bf16-terms" */
  const char* default_value; /* canonical text of the value used when none is chosen */
  const char* choices;       /* ENUM: the allowed words separated by '|' ("fast|precise");
                                NULL for the other types */
  double min_value;          /* INT, FLOAT: inclusive bounds; ignored for BOOL and ENUM */
  double max_value;
  const char* help;          /* one line: what the option changes */
} cae_option_desc;

/* Filled by device_info. The caller sets struct_size = sizeof(cae_device_info). */
typedef struct cae_device_info {
  uint32_t struct_size;
  int32_t precision;     /* cae_precision */
  int32_t deterministic; /* 1: the same inputs give bit-identical outputs */
  int32_t compute_units; /* multiprocessors (GPU) or threads (CPU) */
  uint64_t memory_total_bytes;
  uint64_t memory_free_bytes;
  char device_name[128]; /* NUL-terminated, e.g. "NVIDIA H200" */
} cae_device_info;

/* Kinds of the SVM kernel-matrix op. */
typedef enum cae_kernel_kind {
  CAE_KERNEL_LINEAR = 0, /* K[i,j] = <x_i, y_j> */
  CAE_KERNEL_RBF = 1     /* K[i,j] = exp(-gamma * ||x_i - y_j||^2) */
} cae_kernel_kind;

/* Losses of linear_loss (ABI 1.11): the linear classifier's objectives. */
typedef enum cae_linear_loss_kind {
  CAE_LINEAR_LOSS_CROSS_ENTROPY = 0, /* -log softmax(s)[y]                   */
  CAE_LINEAR_LOSS_SQUARED_HINGE = 1  /* sum_c max(0, 1 - t_c s_c)^2, t_y = +1, else -1 */
} cae_linear_loss_kind;

/* The linear part of a feature encoder at each pixel (channel_code, ABI
 * 1.13), over the C channels of x[n, :, p]: */
typedef enum cae_channel_code {
  CAE_CHANNEL_CODE_CENTRED = 0, /* C channels: x[c] - mean over k of x[k] (the triangle code) */
  CAE_CHANNEL_CODE_SPLIT = 1    /* 2C channels: x[c] at c, -x[c] at C + c (the two polarities) */
} cae_channel_code;

/* Rows per block of linear_loss's sums. */
#define CAE_LINEAR_LOSS_BLOCK_ROWS 256

/* One dual problem of the one-vs-one kernel SVM (C-SVC on one class pair),
 * for svm_dual_solve (ABI 1.8). The pair's rows are class a's n_a rows,
 * labelled y = +1, then class b's n_b rows, labelled y = -1 (l = n_a + n_b
 * in all); their kernel K [l, l] is given as four blocks of that order:
 * kernel_aa [n_a, n_a], kernel_ab [n_a, n_b], kernel_ba [n_b, n_a] (K(b, a):
 * the transpose of kernel_ab as the backend computed it) and kernel_bb
 * [n_b, n_b], each as kernel_matrix wrote it, so a class's diagonal block can
 * serve every pair of that class. Since ABI 1.9 kernel_ba may be NULL: the
 * backend then takes K(b, a) as kernel_ab's transpose, and the host spares
 * computing it, half of every pair's own kernel (a 1.8 backend refuses NULL). The problem is
 *     min_a 1/2 a'Qa - e'a   subject to  y'a = 0,  0 <= a_t <= C,
 * Q_st = y_s y_t K_st. alpha and gradient [l] hold a feasible start and its
 * gradient Q alpha - e (alpha = 0, gradient = -1: a cold start; a solution
 * for a smaller C: a warm one, which needs nothing recomputed); the solver
 * overwrites them with its solution and that solution's gradient. */
typedef struct cae_svm_dual_problem {
  size_t struct_size; /* set by the caller: sizeof(cae_svm_dual_problem) */
  cae_tensor kernel_aa;
  cae_tensor kernel_ab;
  cae_tensor kernel_ba;
  cae_tensor kernel_bb;
  cae_tensor alpha;       /* [l], in and out */
  cae_tensor gradient;    /* [l], in and out */
  double C;               /* the box, > 0 */
  double eps;             /* the stopping tolerance, > 0 */
  int64_t max_iterations; /* >= 1 */
  /* Written by the solver: */
  int64_t iterations;     /* two-variable steps taken */
  int32_t converged;      /* 1: the largest KKT violation is <= eps; 0: stopped at max_iterations */
} cae_svm_dual_problem;

/* Hyper-parameters of one Adam step (Kingma & Ba, with bias correction). */
typedef struct cae_adam_params {
  float learning_rate;
  float beta1;
  float beta2;
  float epsilon;
  float weight_decay; /* L2 term added to the gradient: g += weight_decay * p */
  int32_t step;       /* 1 for the first update; used for bias correction */
} cae_adam_params;

/* ---- ABI 1.5: graphs (a whole computation as data) ----------------------- *
 *
 * A graph is a list of tensors and a list of nodes; each node is one call of
 * an op member above, its tensors named by index into the tensor list. The
 * host describes a training step, a reconstruction or an encoder pass this
 * way, compiles it once per shape (graph_compile) and runs it many times
 * (graph_run), binding its non-internal tensors to cae_tensor handles on
 * each run. A backend that sees the whole computation may fuse across nodes,
 * keep INTERNAL tensors in any precision and layout it declares through
 * device_info, and replay a captured device graph. docs/abi.md, "Graphs". */

/* What a graph tensor is to the host: who owns it, who reads it. */
typedef enum cae_graph_tensor_role {
  CAE_GRAPH_INPUT = 0,     /* bound on every run; the graph only reads it */
  CAE_GRAPH_PARAMETER = 1, /* bound; read, and updated in place by optimiser nodes */
  CAE_GRAPH_OPTIMIZER_STATE = 2, /* bound; Adam's m and v, SGD's velocity: updated in place */
  CAE_GRAPH_OUTPUT = 3,    /* bound; written by the graph, read by the host afterwards */
  CAE_GRAPH_INTERNAL = 4   /* not bound: the backend owns it, in any layout and precision */
} cae_graph_tensor_role;

/* The op of a node. `args` holds the op member's tensor arguments in the
 * order of its parameter list after ctx (-1 where the member accepts NULL);
 * the scalars come from the node's attributes or from the run's parameters:
 *   CONV2D_FORWARD       x, w, b, y                  attribute fuse_relu
 *   CONV2D_BACKWARD      x, w, dy, dx (or -1), dw, db
 *   RELU_FORWARD         x, y                        (y may be x)
 *   RELU_BACKWARD        y, dy, dx                   (dx may be dy)
 *   MAXPOOL2X2_FORWARD   x, y
 *   MAXPOOL2X2_BACKWARD  x, dy, dx
 *   UPSAMPLE2X_FORWARD   x, y
 *   UPSAMPLE2X_BACKWARD  dy, dx
 *   MSE_LOSS             pred, target, loss, grad (or -1)
 *   SGD_STEP             param, grad, velocity (or -1 when momentum is 0)
 *                        attributes momentum, weight_decay; run's learning_rate
 *   ADAM_STEP            param, grad, m, v
 *                        attributes beta1, beta2, epsilon, weight_decay;
 *                        run's learning_rate and adam_step
 *   ALL_REDUCE_SUM       t (in place)                attribute scale   (ABI 1.6)
 *                        t becomes scale x the sum of t over the members of
 *                        the description's group, as group_all_reduce_sum
 *                        does for one tensor: data parallelism's gradient
 *                        exchange inside the training step, where a backend
 *                        may start it as soon as t is final and overlap it
 *                        with the nodes that do not touch t. */
typedef enum cae_graph_op {
  CAE_GRAPH_CONV2D_FORWARD = 0,
  CAE_GRAPH_CONV2D_BACKWARD = 1,
  CAE_GRAPH_RELU_FORWARD = 2,
  CAE_GRAPH_RELU_BACKWARD = 3,
  CAE_GRAPH_MAXPOOL2X2_FORWARD = 4,
  CAE_GRAPH_MAXPOOL2X2_BACKWARD = 5,
  CAE_GRAPH_UPSAMPLE2X_FORWARD = 6,
  CAE_GRAPH_UPSAMPLE2X_BACKWARD = 7,
  CAE_GRAPH_MSE_LOSS = 8,
  CAE_GRAPH_SGD_STEP = 9,
  CAE_GRAPH_ADAM_STEP = 10,
  CAE_GRAPH_ALL_REDUCE_SUM = 11 /* ABI 1.6 */
} cae_graph_op;

/* The most tensor arguments of one node (conv2d_backward's six). */
#define CAE_GRAPH_MAX_ARGS 6

/* One tensor of a graph: its role and its boundary shape (as tensor_alloc's). */
typedef struct cae_graph_tensor {
  int32_t role; /* cae_graph_tensor_role */
  int32_t ndim; /* 1..CAE_MAX_DIMS */
  int64_t dims[CAE_MAX_DIMS];
} cae_graph_tensor;

/* One node: an op call. Unused args and attributes are -1 and 0. */
typedef struct cae_graph_node {
  int32_t op;                       /* cae_graph_op */
  int32_t args[CAE_GRAPH_MAX_ARGS]; /* tensor indices, see cae_graph_op */
  int32_t fuse_relu;                /* CONV2D_FORWARD: 0 or 1 */
  float beta1;                      /* ADAM_STEP */
  float beta2;                      /* ADAM_STEP */
  float epsilon;                    /* ADAM_STEP */
  float weight_decay;               /* ADAM_STEP, SGD_STEP */
  float momentum;                   /* SGD_STEP */
  float scale;                      /* ALL_REDUCE_SUM (ABI 1.6) */
} cae_graph_node;

/* The whole graph, read by graph_compile. The caller sets struct_size =
 * sizeof(cae_graph_desc), tensor_stride = sizeof(cae_graph_tensor) and
 * node_stride = sizeof(cae_graph_node) as it was compiled, so that a later
 * minor may append members to each entry: a callee reads entry i at
 * i * stride and treats members beyond the caller's stride as zero. */
typedef struct cae_graph_desc {
  uint32_t struct_size;
  uint32_t tensor_stride;
  uint32_t node_stride;
  int32_t tensor_count;
  const cae_graph_tensor* tensors;
  int32_t node_count;
  int32_t reserved;
  const cae_graph_node* nodes; /* run in this order */
  /* ABI 1.6: the group whose members exchange the ALL_REDUCE_SUM nodes'
   * tensors (NULL for a graph without them), this context's index in the
   * list the group was created from, and the group's size. Every member
   * compiles a graph with the same nodes; a step's runs of these graphs
   * must be in flight on every member at once, each from its own thread
   * (as NCCL asks of one thread per device), and a member whose run fails
   * makes the others' runs of that step fail, never wait. */
  cae_group group;
  int32_t group_member;
  int32_t group_members;
} cae_graph_desc;

/* The scalars that change from run to run without a new compile. The caller
 * sets struct_size = sizeof(cae_graph_run_params). */
typedef struct cae_graph_run_params {
  uint32_t struct_size;
  float learning_rate; /* SGD_STEP, ADAM_STEP */
  int32_t adam_step;   /* ADAM_STEP: 1 for the first update (bias correction) */
  int32_t reserved;
} cae_graph_run_params;

/* ---- the function table -------------------------------------------------- */

typedef struct cae_backend_table {
  /* -- header: identical layout in every major version -- */
  uint32_t struct_size; /* sizeof the table as the backend was compiled */
  uint32_t abi_major;   /* CAE_ABI_MAJOR the backend was compiled against */
  uint32_t abi_minor;   /* CAE_ABI_MINOR the backend was compiled against */
  uint32_t reserved;
  const char* name;        /* short, unique, lower case: "cpu", "v2"; selects with --backend */
  const char* version;     /* the backend's own version, e.g. "1.0.0" */
  const char* description; /* one line for `cae backends` */

  /* -- lifecycle (required) -- */

  /* Can this backend run here? Never fails for "no device": it fills
   * available = 0 and a reason instead, and returns CAE_STATUS_OK. */
  cae_status (*probe)(cae_probe_result* out);

  /* Creates a context on options->device_index. On failure *out is NULL and
   * last_error(NULL) tells why. */
  cae_status (*create)(const cae_create_options* options, cae_context* out);

  /* Frees the context and every tensor still allocated in it, device memory
   * included. ctx may be NULL (no-op). */
  void (*destroy)(cae_context ctx);

  /* Message of the most recent failed call on ctx (or, for ctx == NULL, of
   * the calling thread's most recent failed probe/create). Never NULL; the
   * pointer stays valid until the next call on the same context/thread. */
  const char* (*last_error)(cae_context ctx);

  cae_status (*device_info)(cae_context ctx, cae_device_info* out);

  /* -- tensors (required) -- */

  /* Allocates an uninitialised float32 tensor of ndim (1..CAE_MAX_DIMS)
   * dimensions, each >= 1. */
  cae_status (*tensor_alloc)(cae_context ctx, int32_t ndim, const int64_t* dims, cae_tensor* out);

  /* Frees a tensor of this context. t may be NULL (no-op). */
  void (*tensor_free)(cae_context ctx, cae_tensor t);

  /* Copies `count` floats from host memory into t; count must equal the
   * tensor's element count. The layout of src is the boundary layout
   * (NCHW / OIHW / row-major). src may be reused as soon as the call returns. */
  cae_status (*tensor_upload)(cae_context ctx, cae_tensor t, const float* src, size_t count);

  /* Waits for pending work on ctx, then copies the whole tensor (count must
   * equal its element count) to host memory in the boundary layout. */
  cae_status (*tensor_download)(cae_context ctx, cae_tensor t, float* dst, size_t count);

  /* -- layer ops (a NULL member means "unsupported") -- */

  /* y = [ReLU](conv(x, w) + b): stride 1, zero "same" padding of K/2.
   * x [N,C,H,W], w [O,C,K,K] with K odd (K = 3 must be supported; other K may
   * return CAE_STATUS_UNSUPPORTED), b [O], y [N,O,H,W]. fuse_relu: 0 or 1. */
  cae_status (*conv2d_forward)(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b,
                               cae_tensor y, int32_t fuse_relu);

  /* Gradients of y = conv(x, w) + b given dy = dL/dy (of the pre-activation
   * output: apply relu_backward first when ReLU was fused).
   * dx [N,C,H,W] (may be NULL: not needed for the first layer),
   * dw [O,C,K,K], db [O]: all overwritten, dw and db summed over the batch. */
  cae_status (*conv2d_backward)(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy,
                                cae_tensor dx, cae_tensor dw, cae_tensor db);

  /* y = max(x, 0), any shape, same shape. y may alias x (in place). */
  cae_status (*relu_forward)(cae_context ctx, cae_tensor x, cae_tensor y);

  /* dx = dy where y > 0, else 0; y is the ReLU's OUTPUT. Same shapes.
   * dx may alias dy (in place). */
  cae_status (*relu_backward)(cae_context ctx, cae_tensor y, cae_tensor dy, cae_tensor dx);

  /* 2x2 max-pool, stride 2: x [N,C,H,W] with H, W even, y [N,C,H/2,W/2]. */
  cae_status (*maxpool2x2_forward)(cae_context ctx, cae_tensor x, cae_tensor y);

  /* dx [N,C,H,W] from dy [N,C,H/2,W/2], re-deriving the max from x. Each
   * window's gradient goes to ONE element: the first that equals the window's
   * max in the order (0,0), (0,1), (1,0), (1,1) (row-major). The other three
   * get 0. This tie rule matters after a ReLU, where windows of zeros are common. */
  cae_status (*maxpool2x2_backward)(cae_context ctx, cae_tensor x, cae_tensor dy, cae_tensor dx);

  /* Nearest-neighbour 2x upsample: x [N,C,H,W], y [N,C,2H,2W],
   * y[n,c,i,j] = x[n,c,i/2,j/2]. */
  cae_status (*upsample2x_forward)(cae_context ctx, cae_tensor x, cae_tensor y);

  /* dx [N,C,H,W] = sum of dy [N,C,2H,2W] over each 2x2 block. */
  cae_status (*upsample2x_backward)(cae_context ctx, cae_tensor dy, cae_tensor dx);

  /* Mean squared error over all E elements:
   *   loss[0] = sum((pred - target)^2) / E         (loss: a 1-element tensor)
   *   grad    = 2 * (pred - target) / E             (same shape; may be NULL)
   * pred and target have the same element count. The value stays on the
   * device: the host downloads `loss` only when it wants the number. */
  cae_status (*mse_loss)(cae_context ctx, cae_tensor pred, cae_tensor target, cae_tensor loss,
                         cae_tensor grad);

  /* SGD with (heavy-ball) momentum, element-wise, in place on param/velocity:
   *   g = grad + weight_decay * param
   *   velocity = momentum * velocity + g
   *   param   -= learning_rate * velocity
   * With momentum == 0, velocity may be NULL (plain SGD: param -= lr * g).
   * param, grad, velocity: same element count. */
  cae_status (*sgd_step)(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor velocity,
                         float learning_rate, float momentum, float weight_decay);

  /* Adam, element-wise, in place on param, m and v:
   *   g = grad + weight_decay * param
   *   m = beta1 * m + (1 - beta1) * g
   *   v = beta2 * v + (1 - beta2) * g^2
   *   param -= lr * (m / (1 - beta1^step)) / (sqrt(v / (1 - beta2^step)) + epsilon)
   * All four tensors have the same element count. */
  cae_status (*adam_step)(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m,
                          cae_tensor v, const cae_adam_params* params);

  /* SVM kernel matrix for row-major X [n,d] and Y [m,d] into K [n,m]:
   *   LINEAR: K[i,j] = sum_k X[i,k] * Y[j,k]         (gamma ignored)
   *   RBF:    K[i,j] = exp(-gamma * sum_k (X[i,k] - Y[j,k])^2), gamma > 0
   * X and Y may be the same tensor. */
  cae_status (*kernel_matrix)(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor k,
                              int32_t kind, float gamma);

  /* Waits until all work issued on ctx has finished; reports deferred errors. */
  cae_status (*synchronize)(cae_context ctx);

  /* -- optional measurement members (may be NULL) -- */

  /* Starts a device-side timer on ctx's stream (replaces a running one). */
  cae_status (*timer_start)(cae_context ctx);

  /* Stops the timer, waits for the work between start and stop, and returns
   * the elapsed device time in milliseconds. */
  cae_status (*timer_stop)(cae_context ctx, double* elapsed_ms);

  /* Bytes of device memory this context holds now and at most since create. */
  cae_status (*memory_stats)(cae_context ctx, uint64_t* in_use_bytes, uint64_t* peak_bytes);

  /* -- ABI 1.1: optional collectives over several contexts (may be NULL) --
   *
   * A backend provides all three or none. Without them the host still runs
   * on several devices: it downloads the tensors of every context, sums them
   * in member order 0, 1, ..., N-1 on the host and uploads the sum (docs/abi.md).
   * A backend whose contexts cannot talk to one another directly need not
   * provide them. */

  /* Creates a group over `count` (>= 1) distinct contexts of this backend,
   * member i being contexts[i]. The contexts must outlive the group. Every
   * later call on the group involves all members: the host calls the group's
   * members from ONE thread, and during such a call it issues no other work on
   * any member context. On failure *out is NULL and last_error(NULL) (this
   * thread) tells why; CAE_STATUS_UNSUPPORTED when these contexts cannot form
   * a group (e.g. two contexts on one device for a library that forbids it):
   * the host then falls back to its own exchange. */
  cae_status (*group_create)(const cae_context* contexts, int32_t count, cae_group* out);

  /* In place, on every member m and every index i < tensors_per_context:
   *   tensors[m * tensors_per_context + i] =
   *       scale * (sum over members k of tensors[k * tensors_per_context + i])
   * `tensors` holds count * tensors_per_context tensors, member by member, in
   * the order of group_create; tensor i has the same shape on every member.
   * One call moves the whole list (a backend fuses it into as few transfers
   * as it can; the host calls it once per training step, not per tensor).
   * Deterministic: every member gets bit-identical values, and the same
   * inputs give the same values on every run. The work may be queued on the
   * members' streams (synchronize or tensor_download on a member waits for
   * it). Errors: last_error on member 0's context. */
  cae_status (*group_all_reduce_sum)(cae_group group, const cae_tensor* tensors,
                                     int32_t tensors_per_context, float scale);

  /* Frees the group (not its contexts). group may be NULL (no-op). Call it
   * before destroying any member context. */
  void (*group_destroy)(cae_group group);

  /* -- ABI 1.2: optional groups that span processes (may be NULL) --
   *
   * One context per process (one process per GPU, on one host or several):
   * the processes form a group through an id that one of them makes and the
   * others receive by any means (a file, an environment variable; see
   * docs/distributed.md). A backend provides both or neither, and only
   * together with the three 1.1 members: group_all_reduce_sum and
   * group_destroy serve such a group too. Without them a host runs one
   * process per device only where it has an exchange of its own. */

  /* Makes a new group id, called by ONE process (rank 0) per group. On entry
   * *bytes is the capacity of `out`; on return it is the id's size. With out
   * NULL (or a capacity below the id's size: CAE_STATUS_INVALID_ARGUMENT)
   * nothing is written but *bytes. The id is plain bytes that may travel
   * between hosts. Errors through last_error(NULL). */
  cae_status (*group_unique_id)(size_t* bytes, void* out);

  /* Joins the group of `world` (>= 1) processes named by `id` as member
   * `rank` (0 <= rank < world) with this process's context `ctx`. Blocks until
   * every rank has joined (each process calls it once, with the same id and
   * world). The group's all-reduce then takes this process's tensors only
   * (tensors_per_context tensors, one context) and sums across all ranks;
   * every rank must call it with the same list of shapes. The group holds one
   * local member, ctx, which must outlive it. On failure *out is NULL and
   * last_error(NULL) tells why. */
  cae_status (*group_join)(cae_context ctx, int32_t rank, int32_t world, const void* id,
                           size_t bytes, cae_group* out);

  /* -- ABI 1.3: optional page-locked host memory (may be NULL) --
   *
   * A backend provides both or neither. Host memory that the device's copy
   * engine can read and write directly (CUDA: cudaHostAlloc): a host that keeps
   * its transfer buffers here lets tensor_upload and tensor_download move data
   * at the bus's speed instead of through the driver's bounce buffers (H200,
   * PCIe 5: 48-53 GB/s against 14-15 GB/s, docs/PERF.md). Such memory is
   * ordinary host memory in every other respect: the host reads and writes it,
   * and passes it (or any part of it) to tensor_upload / tensor_download,
   * whose contracts are unchanged. Allocating it is slow (milliseconds) and
   * it is a scarce system resource: a host allocates its buffers once and
   * reuses them. Without these members the host uses ordinary memory. */

  /* Allocates `bytes` (>= 1) of page-locked host memory, aligned to at least
   * 64 bytes, usable with every context of this backend. On failure *out is
   * NULL and last_error(ctx) tells why (CAE_STATUS_OUT_OF_MEMORY names the
   * size). The memory lives until host_free or until ctx is destroyed,
   * whichever comes first. */
  cae_status (*host_alloc)(cae_context ctx, size_t bytes, void** out);

  /* Frees memory that host_alloc on the same ctx returned. ptr may be NULL
   * (no-op); a pointer host_alloc did not return is ignored. */
  void (*host_free)(cae_context ctx, void* ptr);

  /* -- ABI 1.4: optional declared options (may be NULL) --
   *
   * A backend provides both or neither. Options are the user's choices that
   * change what a backend computes or how (a precision setting, a tuning
   * worth keeping): each is declared here with its type, default, allowed
   * values and one line of help, chosen on the host's command line
   * (`--backend-option NAME=VALUE`), passed to create_with_options, listed
   * by `cae info` and recorded in checkpoints and reports. A backend reads no
   * environment variable that changes its results: an option takes its
   * place. A backend provides all three members or none; without them it
   * has no options, and the host refuses any that a user chooses. (The values
   * travel as a separate argument, not inside cae_create_options, so that
   * struct keeps its size and alignment for every backend.) */

  /* The number of options this backend declares (>= 0). */
  int32_t (*option_count)(void);

  /* Describes option `index` (0 <= index < option_count()) into *out (whose
   * struct_size the caller set). CAE_STATUS_INVALID_ARGUMENT for another
   * index. The same index always gives the same option. */
  cae_status (*option_describe)(int32_t index, cae_option_desc* out);

  /* create, with `count` (>= 0) chosen option values (`values` may be NULL
   * when count is 0); every option not listed takes its default, so
   * create_with_options(o, NULL, 0, out) is create(o, out). It checks every
   * value before it does anything else: a name the backend does not declare
   * gives CAE_STATUS_UNSUPPORTED, a value that is not the canonical text of
   * the option's type, lies outside its range or choices, or a name given
   * twice, CAE_STATUS_INVALID_ARGUMENT; last_error(NULL) then names the
   * option and its allowed values. A backend never clamps or ignores a
   * chosen value. The strings need to live only for the duration of the call. */
  cae_status (*create_with_options)(const cae_create_options* options,
                                    const cae_option_value* values, int32_t count,
                                    cae_context* out);

  /* -- ABI 1.5: optional graphs (may be NULL) --
   *
   * A backend provides all three or none; without them, or when graph_compile
   * answers CAE_STATUS_UNSUPPORTED, the host runs the same nodes op by op.
   * Contract (docs/abi.md, "Graphs"):
   *   - Results: running a graph gives the results of calling its nodes' op
   *     members in node order, within the tolerances cae-conformance declares
   *     for each op at the backend's precision. Only bound tensors are
   *     observable: a backend may fuse nodes, reorder independent ones, keep
   *     INTERNAL tensors in its own layout and precision, or never
   *     materialise them. It may not change what a bound tensor holds after
   *     the run: OUTPUT tensors are fully written, PARAMETER and
   *     OPTIMIZER_STATE tensors hold their updated values, INPUT tensors are
   *     unchanged.
   *   - Aliasing: inside the description, a node may name one tensor twice
   *     only where its op member allows that aliasing (relu in place). At run
   *     time no two bound indices may share a cae_tensor.
   *   - Lifetime: the description need live only during graph_compile. A
   *     graph belongs to the context it was compiled on and must be destroyed
   *     before it; the bound tensors need live only during graph_run.
   *     Bindings may differ from run to run (a backend that captured device
   *     addresses checks them and re-captures).
   *   - Shapes are fixed at compile: graph_run refuses (INVALID_ARGUMENT) a
   *     bound tensor whose shape is not the declared one; the bound tensors'
   *     contents are then unspecified. A new batch size is a new graph: a
   *     backend never replays work recorded for other shapes. */

  /* Validates `desc` (indices in range, every node's shapes as its op member
   * requires, no INTERNAL tensor read before a node writes it) and prepares
   * the graph. CAE_STATUS_UNSUPPORTED when this backend does not compile
   * this graph (the host then runs it op by op); INVALID_ARGUMENT, with a
   * message naming the node, for a description that breaks the op
   * contracts. On failure *out is NULL and last_error(ctx) tells why. */
  cae_status (*graph_compile)(cae_context ctx, const cae_graph_desc* desc, cae_graph* out);

  /* Runs the graph once. `bindings` holds one handle per graph tensor, in
   * the description's order: a tensor of ctx for every non-INTERNAL one,
   * NULL for every INTERNAL one (binding_count = the description's
   * tensor_count). `params` (struct_size set by the caller) may be NULL for
   * a graph without optimiser nodes. May be asynchronous like any op. */
  cae_status (*graph_run)(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
                          int32_t binding_count, const cae_graph_run_params* params);

  /* Frees the graph and its internal tensors. graph may be NULL (no-op). */
  void (*graph_destroy)(cae_context ctx, cae_graph graph);

  /* -- ABI 1.7: optional bounded join (may be NULL) --
   *
   * group_join with a limit on the wait: a rank that died or never started
   * ends every other rank's join after `timeout_ms`, not never. A backend
   * provides it only together with group_join. */

  /* As group_join, but waits at most timeout_ms (>= 1) milliseconds for
   * every rank to join; then gives up, frees what the join made (NCCL:
   * aborts the communicator) and fails with CAE_STATUS_UNAVAILABLE, the
   * message naming the rank, the world and the time waited. */
  cae_status (*group_join_within)(cae_context ctx, int32_t rank, int32_t world, const void* id,
                                  size_t bytes, int64_t timeout_ms, cae_group* out);

  /* -- ABI 1.8: optional SVM dual solver (may be NULL) --
   *
   * Solves `count` (>= 1) independent problems (cae_svm_dual_problem, each
   * with struct_size set) by sequential minimal optimisation: two variables
   * at a time, the pair chosen by second-order working-set selection (Fan,
   * Chen & Lin, 2005), the largest violating pair's gap
   *     m(a) - M(a),  m = max over t that may move up of -y_t G_t,
   *                   M = min over t that may move down of -y_t G_t,
   * driven to eps or until max_iterations steps. On return (the call is
   * synchronous: it waits for its work) every problem's alpha, gradient,
   * iterations and converged are written; alpha is feasible (in [0, C],
   * y'alpha = 0 within rounding) and gradient is Q alpha - e within the
   * rounding of the steps' updates. Problems may share kernel tensors (a
   * class's diagonal block), never an alpha or gradient tensor; a backend
   * may solve them side by side. INVALID_ARGUMENT, naming the problem and
   * what is wrong, for shapes that do not fit, C, eps or max_iterations out
   * of range, or a start outside the box; nothing is written then. */
  cae_status (*svm_dual_solve)(cae_context ctx, cae_svm_dual_problem* problems, int32_t count);

  /* ABI 1.9 appended nothing (svm_dual_solve accepts a NULL kernel_ba). */

  /* -- optional member of ABI 1.10 (may be NULL) -- */

  /* The RBF kernel from the linear one, for several gammas over the same
   * rows (a C and gamma search): `linear` [n,m] holds what
   * kernel_matrix(x, y, linear, CAE_KERNEL_LINEAR, 0) wrote on this backend;
   * K [n,m] gets, bit for bit, what kernel_matrix(x, y, k, CAE_KERNEL_RBF,
   * gamma) would write, at the cost of a memory pass instead of the product.
   * x and y (the same tensor for a square block, as given to kernel_matrix)
   * supply the rows' squared norms. k may be `linear` itself (in place).
   * INVALID_ARGUMENT for shapes that do not fit or gamma not > 0 and finite;
   * nothing is written then. A backend offers it only where its RBF kernel
   * is the linear product plus an element-wise pass, so that the two agree. */
  cae_status (*kernel_rbf_from_linear)(cae_context ctx, cae_tensor x, cae_tensor y,
                                       cae_tensor linear, cae_tensor k, float gamma);

  /* -- optional member of ABI 1.11 (may be NULL) --
   *
   * The linear classifier's loss on a group of rows, between its two
   * products, so that a pass over rows kept on the device sends down only
   * the gradient's product and these sums. For scores [n,k] (row i: the
   * product of row i with the classes' weights, k >= 1 classes), bias [k]
   * and targets [n] (row i's class as an exact float in 0 .. k-1), with
   *   s_c = scores[i,c] + bias[c]   (the sum rounded to float)
   * and y = targets[i]:
   *   CROSS_ENTROPY: loss_i = log(sum_c exp(s_c - m)) - (s_y - m), m = max_c s_c,
   *                  g_c = softmax(s)_c - [c == y]
   *   SQUARED_HINGE: with t_c = +1 for c == y, else -1, h_c = max(0, 1 - t_c s_c):
   *                  loss_i = sum_c h_c^2,  g_c = -2 t_c h_c
   * it writes residuals [k,n] (transposed: the operand of the next product,
   * residuals^T x) = scale * g_c for row i at [c,i], and sums
   * [ceil(n / CAE_LINEAR_LOSS_BLOCK_ROWS), k + 1, 2]: for block b (rows
   * b * 256 .. b * 256 + 255, the last one shorter), [b,c,:] the sum over its
   * rows of scale * g_c (c < k) and [b,k,:] the sum of loss_i (not scaled),
   * each as two floats whose sum (in double) is the value: the first the
   * float nearest it, the second the float nearest the rest. The values are
   * computed in double precision and summed in a fixed order, so that a
   * line search can compare two losses that differ in their eighth digit;
   * cae-conformance holds them to 1e-10 of the terms' magnitude. A target
   * that is not a class index makes its row's residuals and its block's
   * sums NaN (a check on the device that costs no synchronisation).
   * INVALID_ARGUMENT for shapes that do not fit, an unknown kind, scale not
   * > 0 and finite, or residuals or sums that are scores, bias or targets;
   * nothing is written then. UNSUPPORTED when a declared option turns it
   * off: the host then computes the loss itself. */
  cae_status (*linear_loss)(cae_context ctx, cae_tensor scores, cae_tensor bias, cae_tensor targets,
                            int32_t kind, float scale, cae_tensor residuals, cae_tensor sums);

  /* -- optional member of ABI 1.11 (may be NULL) --
   *
   * y [c,r] = x [r,c] transposed (row-major both), every value copied bit
   * for bit: a matrix the host would otherwise transpose in its own memory
   * and upload twice (the linear classifier's rows, needed as X and X^T by
   * its two products) goes up once. x and y must be different tensors.
   * INVALID_ARGUMENT for shapes that do not fit or y == x, UNSUPPORTED
   * for a matrix larger than the backend transposes (the host then
   * transposes it itself); nothing is written then. */
  cae_status (*transpose)(cae_context ctx, cae_tensor x, cae_tensor y);

  /* -- optional member of ABI 1.12 (may be NULL) --
   *
   * y = x + sigma * z, value by value, z the standard normal draws
   * cae_normal_draw(seed, first_index + i) (below) where i is the value's
   * index in the boundary order (NCHW for 4-D: whatever layout the backend
   * keeps). Input noise for denoising training made where the batch already
   * is, instead of drawn on the host and uploaded beside the clean batch;
   * first_index lets several devices, each holding a shard of one batch,
   * draw the values the whole batch would (the shard's offset). x and y
   * have the same shape and may be the same tensor (in place). sigma must
   * be finite and >= 0 (INVALID_ARGUMENT otherwise, nothing written). The
   * host adds the same draws itself where a backend lacks the member. */
  cae_status (*add_normal_noise)(cae_context ctx, cae_tensor x, cae_tensor y, float sigma,
                                 uint64_t seed, uint64_t first_index);

  /* -- optional member of ABI 1.13 (may be NULL) --
   *
   * The feature encoders' linear part, pixel by pixel, without a product over
   * the channels: y = L(x) + bias, then max(0, .) when relu != 0, where L is
   * `code` (cae_channel_code) applied to the channels of each pixel. x is
   * [N, C, H, W]; y is [N, C, H, W] (CENTRED) or [N, 2C, H, W] (SPLIT), a
   * tensor other than x. The mean is a float32 sum of the C values divided by
   * C, in any order (within float rounding of the exact mean). What a host
   * otherwise runs as a 1x1 convolution with fixed weights, C x C (or 2C x
   * C) multiply-adds per pixel: a 4,000-channel map's centring is 4,000 times
   * the work of reading it. A bad code, shape or a non-finite bias is
   * INVALID_ARGUMENT, nothing written. */
  cae_status (*channel_code)(cae_context ctx, cae_tensor x, cae_tensor y, int32_t code, float bias,
                             int32_t relu);

  /* Later minors append members here. */
} cae_backend_table;

/* The smallest table the host accepts for ABI 1.x: everything up to and
 * including synchronize. Members after it are optional. */
#define CAE_BACKEND_TABLE_MIN_SIZE \
  (offsetof(cae_backend_table, synchronize) + sizeof(((cae_backend_table*)0)->synchronize))

/* The exact struct_size of a table of each released minor of major 1. A table
 * that declares one of these minors must have exactly that size: the host warns
 * (`cae backends -v`) and cae-conformance fails a table whose size and minor
 * disagree, since members would then be read from the wrong place. */
#define CAE_BACKEND_TABLE_SIZE_1_0 \
  (offsetof(cae_backend_table, memory_stats) + sizeof(((cae_backend_table*)0)->memory_stats))

#define CAE_BACKEND_TABLE_SIZE_1_1 \
  (offsetof(cae_backend_table, group_destroy) + sizeof(((cae_backend_table*)0)->group_destroy))

#define CAE_BACKEND_TABLE_SIZE_1_2 \
  (offsetof(cae_backend_table, group_join) + sizeof(((cae_backend_table*)0)->group_join))

#define CAE_BACKEND_TABLE_SIZE_1_3 \
  (offsetof(cae_backend_table, host_free) + sizeof(((cae_backend_table*)0)->host_free))

#define CAE_BACKEND_TABLE_SIZE_1_4                     \
  (offsetof(cae_backend_table, create_with_options) + \
   sizeof(((cae_backend_table*)0)->create_with_options))

#define CAE_BACKEND_TABLE_SIZE_1_5 \
  (offsetof(cae_backend_table, graph_destroy) + sizeof(((cae_backend_table*)0)->graph_destroy))

/* ABI 1.6 appended to graph structs and an enumeration, not to the table. */
#define CAE_BACKEND_TABLE_SIZE_1_6 CAE_BACKEND_TABLE_SIZE_1_5

#define CAE_BACKEND_TABLE_SIZE_1_7                   \
  (offsetof(cae_backend_table, group_join_within) + \
   sizeof(((cae_backend_table*)0)->group_join_within))

#define CAE_BACKEND_TABLE_SIZE_1_8 \
  (offsetof(cae_backend_table, svm_dual_solve) + sizeof(((cae_backend_table*)0)->svm_dual_solve))

/* ABI 1.9 widened what svm_dual_solve accepts, not the table. */
#define CAE_BACKEND_TABLE_SIZE_1_9 CAE_BACKEND_TABLE_SIZE_1_8

#define CAE_BACKEND_TABLE_SIZE_1_10                      \
  (offsetof(cae_backend_table, kernel_rbf_from_linear) + \
   sizeof(((cae_backend_table*)0)->kernel_rbf_from_linear))

#define CAE_BACKEND_TABLE_SIZE_1_11 \
  (offsetof(cae_backend_table, transpose) + sizeof(((cae_backend_table*)0)->transpose))

#define CAE_BACKEND_TABLE_SIZE_1_12                \
  (offsetof(cae_backend_table, add_normal_noise) + \
   sizeof(((cae_backend_table*)0)->add_normal_noise))

#define CAE_BACKEND_TABLE_SIZE_1_13 \
  (offsetof(cae_backend_table, channel_code) + sizeof(((cae_backend_table*)0)->channel_code))

/* True when `table` carries a non-NULL `member` (inside its struct_size). */
#define CAE_TABLE_HAS(table, member)                                                     \
  ((table)->struct_size >= offsetof(cae_backend_table, member) + sizeof((table)->member) && \
   (table)->member != NULL)

/* ---- the standard normal draws of add_normal_noise (ABI 1.12) -------------
 *
 * Defined here, in the one header both sides include, so that every backend
 * (CPU or GPU) and the host give value i of stream `seed` the same draw,
 * whatever order, thread count or device count computes it. Draws come in
 * pairs: pair p = i / 2 takes 64 bits from SplitMix64's finaliser applied to
 * seed + (p + 1) * 0x9E3779B97F4A7C15; the high 24 bits make u1 in (0, 1],
 * the low 24 bits u2 in [0, 1), and Box-Muller turns them into two
 * independent standard normals:
 *   r = sqrt(-2 ln u1),  draw 2p = r cos(2 pi u2),  draw 2p + 1 = r sin(2 pi u2).
 * u1 and u2 are exact in float; r and the cosine are computed in float, so
 * two implementations agree within the rounding of their logf, sqrtf and
 * cosf/sinf (cae-conformance's bound). |draw| <= sqrt(2 * 24 ln 2) < 5.8. */
#if defined(__CUDACC__)
#define CAE_DRAW_FUNCTION static inline __host__ __device__
#else
#define CAE_DRAW_FUNCTION static inline
#endif

CAE_DRAW_FUNCTION uint64_t cae_normal_draw_bits(uint64_t seed, uint64_t pair) {
  uint64_t z = seed + (pair + 1u) * UINT64_C(0x9E3779B97F4A7C15);
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

CAE_DRAW_FUNCTION float cae_normal_draw(uint64_t seed, uint64_t index) {
  const uint64_t bits = cae_normal_draw_bits(seed, index >> 1);
  const float u1 = (float)((bits >> 40) + 1u) * (1.0f / 16777216.0f);
  const float u2 = (float)(bits & 0xFFFFFFu) * (1.0f / 16777216.0f);
  const float r = sqrtf(-2.0f * logf(u1));
  const float angle = 6.2831853071795864769f * u2;
  return r * ((index & 1u) ? sinf(angle) : cosf(angle));
}

/* The entry point. host_abi_major is the CAE_ABI_MAJOR the host speaks.
 * Returns NULL when the backend has no table for that major. */
typedef const cae_backend_table* (*cae_backend_entry_fn)(uint32_t host_abi_major);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CAE_BACKEND_H */
