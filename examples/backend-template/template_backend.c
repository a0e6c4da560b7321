/*
 * template_backend.c -- a complete cae backend in one file of plain C.
 *
 * It implements every member of the cae ABI 1.0 table with plain loops over
 * host memory: float32 tensors, float64 accumulation, one thread, bit-for-bit
 * deterministic, and declares one option (ABI 1.4) to show how a backend
 * takes settings from the user (`cae ... --backend-option zero-tensors=true`),
 * and runs whole graphs (ABI 1.5) through its own ops to show both paths (the
 * small ones: larger graphs it leaves to the host's op path, section 7). It
 * is slow on purpose (readable first) and passes cae-conformance. Copy this
 * folder, rename the backend (BACKEND_NAME below and the name in
 * CMakeLists.txt), then replace the loops with your own device code one op
 * at a time, re-running cae-conformance after each.
 *
 * The contract of every member is in <cae/backend.h>; docs/writing-a-backend.md
 * walks through this file.
 *
 * Layout of the file:
 *   1. identity          4. lifecycle: probe, create, destroy, device_info
 *   2. state, errors     5. tensors       7. graphs (ABI 1.5): the ops of 6, node by node
 *   3. argument checks   6. ops           8. the table and the entry point
 */
#include <cae/backend.h>
#include <cae/option_text.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ==== 1. identity ========================================================= */

#define BACKEND_NAME "template" /* what `cae --backend template` selects */
#define BACKEND_VERSION "1.0.0"
#define BACKEND_DESCRIPTION "third-party backend template: plain C loops over host memory"
/* cpu is 10, the CUDA backends 20..40: a low priority keeps this backend from
 * becoming the default when it is dropped into a plugin folder. */
#define BACKEND_PRIORITY 1

/* ==== 2. state and errors ================================================ */

/* A tensor is a shape plus host memory. Tensors of a context form a doubly
 * linked list so that destroy() can free those the host did not free. */
struct cae_tensor_s {
  int32_t ndim;
  int64_t dims[CAE_MAX_DIMS];
  int64_t count; /* product of dims */
  float* data;
  struct cae_tensor_s* prev;
  struct cae_tensor_s* next;
};

struct cae_context_s {
  char last_error[512];
  int zero_tensors;             /* option zero-tensors: tensor_alloc fills with zeros */
  struct cae_tensor_s* tensors; /* every live tensor of this context */
  uint64_t bytes_in_use;        /* for the optional memory_stats member */
  uint64_t peak_bytes;
};

/* probe and create have no context: their errors are kept per thread, as
 * last_error(NULL) is defined per calling thread. */
static _Thread_local char thread_error[512];

/* Records a message for last_error() and returns `status`: every failing
 * member ends with `return fail(ctx, STATUS, "...", ...)`. */
static cae_status fail(cae_context ctx, cae_status status, const char* format, ...) {
  char* slot = ctx ? ctx->last_error : thread_error;
  size_t size = ctx ? sizeof ctx->last_error : sizeof thread_error;
  va_list args;
  va_start(args, format);
  vsnprintf(slot, size, format, args);
  va_end(args);
  return status;
}

/* Shorthand for the common case: the caller broke the op's contract. */
#define INVALID(ctx, ...) fail((ctx), CAE_STATUS_INVALID_ARGUMENT, __VA_ARGS__)

/* Evaluates a check; returns its status from the calling function on failure. */
#define TRY(check)                                \
  do {                                            \
    cae_status status_ = (check);                 \
    if (status_ != CAE_STATUS_OK) return status_; \
  } while (0)

/* ==== 3. argument checks ================================================== */
/* Every op validates its arguments before touching memory and says what is
 * wrong; cae-conformance checks that bad shapes are refused this way. */

/* "[2,3,32,32]" into `text` (for messages). */
static const char* dims_text(const struct cae_tensor_s* t, char* text, size_t size) {
  size_t used = (size_t)snprintf(text, size, "[");
  for (int32_t i = 0; i < t->ndim && used < size; ++i) {
    used += (size_t)snprintf(text + used, size - used, i ? ",%lld" : "%lld", (long long)t->dims[i]);
  }
  if (used < size) snprintf(text + used, size - used, "]");
  return text;
}

static cae_status need_tensor(cae_context ctx, const char* op, const char* name, cae_tensor t) {
  return t ? CAE_STATUS_OK : INVALID(ctx, "%s: %s is NULL", op, name);
}

static cae_status need_ndim(cae_context ctx, const char* op, const char* name, cae_tensor t,
                            int32_t ndim) {
  char text[96];
  TRY(need_tensor(ctx, op, name, t));
  if (t->ndim != ndim) {
    return INVALID(ctx, "%s: %s%s must have %d dimensions", op, name,
                   dims_text(t, text, sizeof text), (int)ndim);
  }
  return CAE_STATUS_OK;
}

/* `t` must exist and have exactly the dims d0..d3 (4-D tensors). */
static cae_status need_shape4(cae_context ctx, const char* op, const char* name, cae_tensor t,
                              int64_t d0, int64_t d1, int64_t d2, int64_t d3) {
  char text[96];
  TRY(need_ndim(ctx, op, name, t, 4));
  if (t->dims[0] != d0 || t->dims[1] != d1 || t->dims[2] != d2 || t->dims[3] != d3) {
    return INVALID(ctx, "%s: %s%s must be [%lld,%lld,%lld,%lld]", op, name,
                   dims_text(t, text, sizeof text), (long long)d0, (long long)d1, (long long)d2,
                   (long long)d3);
  }
  return CAE_STATUS_OK;
}

/* `t` must exist and hold `count` elements (element-wise ops ignore shape). */
static cae_status need_count(cae_context ctx, const char* op, const char* name, cae_tensor t,
                             int64_t count) {
  TRY(need_tensor(ctx, op, name, t));
  if (t->count != count) {
    return INVALID(ctx, "%s: %s has %lld elements, expected %lld", op, name, (long long)t->count,
                   (long long)count);
  }
  return CAE_STATUS_OK;
}

/* The shape of a convolution: x [N,C,H,W], w [O,C,K,K], y [N,O,H,W]. */
typedef struct {
  int64_t n, c, h, w, o, k, pad;
} conv_shape;

/* Validates x and w and fills `s`; the output (or its gradient) is checked by the caller. */
static cae_status conv_shape_of(cae_context ctx, const char* op, cae_tensor x, cae_tensor w,
                                conv_shape* s) {
  char xs[96], ws[96];
  TRY(need_ndim(ctx, op, "x", x, 4));
  TRY(need_ndim(ctx, op, "w", w, 4));
  if (w->dims[1] != x->dims[1] || w->dims[2] != w->dims[3] || w->dims[2] % 2 == 0) {
    return INVALID(ctx, "%s: w%s does not fit x%s: w must be [O,%lld,K,K] with K odd", op,
                   dims_text(w, ws, sizeof ws), dims_text(x, xs, sizeof xs), (long long)x->dims[1]);
  }
  s->n = x->dims[0];
  s->c = x->dims[1];
  s->h = x->dims[2];
  s->w = x->dims[3];
  s->o = w->dims[0];
  s->k = w->dims[2];
  s->pad = s->k / 2;
  return CAE_STATUS_OK;
}

/* ==== 4. lifecycle ======================================================== */

/* Out-structs: the caller says how many bytes it has (struct_size); write
 * no more than that, so an older host with a shorter struct is safe. */
static void write_out_struct(void* out, const void* full, size_t full_size) {
  uint32_t caller_size = *(const uint32_t*)out;
  memcpy(out, full, caller_size < full_size ? caller_size : full_size);
  *(uint32_t*)out = caller_size; /* struct_size stays what the caller set */
}

static cae_status probe(cae_probe_result* out) {
  cae_probe_result result;
  if (!out) return fail(NULL, CAE_STATUS_INVALID_ARGUMENT, "probe: out is NULL");
  memset(&result, 0, sizeof result);
  /* A backend that needs a device would look for it here, and answer
   * available = 0 with a reason ("no CUDA device") instead of failing. */
  result.available = 1;
  result.priority = BACKEND_PRIORITY;
  result.device_count = 1;
  write_out_struct(out, &result, sizeof result);
  return CAE_STATUS_OK;
}

/* The declared options (ABI 1.4): what `cae info` lists and
 * `--backend-option NAME=VALUE` sets. Values arrive as text in the canonical
 * form of their type (backend.h, cae_option_type), which cae/option_text.h
 * checks as the host does; create_with_options checks them before it does
 * anything else and never clamps one. */
static const cae_option_desc backend_options[] = {
    {sizeof(cae_option_desc), CAE_OPTION_BOOL, "zero-tensors", "false", NULL, 0.0, 0.0,
     "fill new tensors with zeros (by default their contents are undefined until written)"}};
#define BACKEND_OPTION_COUNT ((int32_t)(sizeof backend_options / sizeof backend_options[0]))

static int32_t option_count(void) { return BACKEND_OPTION_COUNT; }

static cae_status option_describe(int32_t index, cae_option_desc* out) {
  if (!out) return INVALID(NULL, "option_describe: out is NULL");
  if (index < 0 || index >= BACKEND_OPTION_COUNT) {
    return INVALID(NULL, "option_describe: index %d is outside 0..%d", (int)index,
                   (int)BACKEND_OPTION_COUNT - 1);
  }
  write_out_struct(out, &backend_options[index], sizeof backend_options[index]);
  return CAE_STATUS_OK;
}

static cae_status create_with_options(const cae_create_options* options,
                                      const cae_option_value* values, int32_t count,
                                      cae_context* out) {
  cae_context ctx;
  int zero_tensors = 0, seen = 0;
  int32_t i;
  (void)options; /* one device, one thread: device_index and thread_count do not matter */
  if (!out) return fail(NULL, CAE_STATUS_INVALID_ARGUMENT, "create: out is NULL");
  *out = NULL;
  if (count < 0 || (count > 0 && !values)) return INVALID(NULL, "create: bad option list");
  for (i = 0; i < count; ++i) {
    const char* name = values[i].name ? values[i].name : "(null)";
    const char* value = values[i].value ? values[i].value : "(null)";
    if (strcmp(name, "zero-tensors") != 0) {
      return fail(NULL, CAE_STATUS_UNSUPPORTED, "create: no option '%s' (options: zero-tensors)",
                  name);
    }
    if (seen++) return INVALID(NULL, "create: option zero-tensors given twice");
    if (!cae_option_value_allowed(backend_options[0].type, backend_options[0].min_value,
                                  backend_options[0].max_value, backend_options[0].choices,
                                  value)) {
      return INVALID(NULL, "create: option zero-tensors=%s is not allowed (true or false)", value);
    }
    zero_tensors = strcmp(value, "true") == 0;
  }
  ctx = calloc(1, sizeof *ctx);
  if (!ctx) {
    return fail(NULL, CAE_STATUS_OUT_OF_MEMORY, "create: cannot allocate %zu bytes", sizeof *ctx);
  }
  ctx->zero_tensors = zero_tensors;
  *out = ctx;
  return CAE_STATUS_OK;
}

/* Without options: every option at its default. */
static cae_status create(const cae_create_options* options, cae_context* out) {
  return create_with_options(options, NULL, 0, out);
}

static void free_tensor_memory(struct cae_tensor_s* t) {
  free(t->data);
  free(t);
}

/* Frees the context and every tensor the host did not free. */
static void destroy(cae_context ctx) {
  if (!ctx) return;
  while (ctx->tensors) {
    struct cae_tensor_s* next = ctx->tensors->next;
    free_tensor_memory(ctx->tensors);
    ctx->tensors = next;
  }
  free(ctx);
}

static const char* last_error(cae_context ctx) { return ctx ? ctx->last_error : thread_error; }

static cae_status device_info(cae_context ctx, cae_device_info* out) {
  cae_device_info info;
  long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES),
       free_pages = sysconf(_SC_AVPHYS_PAGES);
  if (!out) return INVALID(ctx, "device_info: out is NULL");
  memset(&info, 0, sizeof info);
  info.precision = CAE_PRECISION_FP32;
  info.deterministic = 1; /* fixed loop order: the same inputs give the same bits */
  info.compute_units = 1; /* one thread */
  if (page > 0 && pages > 0) info.memory_total_bytes = (uint64_t)page * (uint64_t)pages;
  if (page > 0 && free_pages > 0) info.memory_free_bytes = (uint64_t)page * (uint64_t)free_pages;
  if (info.memory_free_bytes > info.memory_total_bytes) {
    info.memory_free_bytes = info.memory_total_bytes;
  }
  snprintf(info.device_name, sizeof info.device_name, "host memory, one thread (%s)", BACKEND_NAME);
  write_out_struct(out, &info, sizeof info);
  return CAE_STATUS_OK;
}

/* ==== 5. tensors ========================================================== */

static cae_status tensor_alloc(cae_context ctx, int32_t ndim, const int64_t* dims,
                               cae_tensor* out) {
  struct cae_tensor_s* t;
  int64_t count = 1;
  if (!out) return INVALID(ctx, "tensor_alloc: out is NULL");
  *out = NULL;
  if (ndim < 1 || ndim > CAE_MAX_DIMS) {
    return INVALID(ctx, "tensor_alloc: ndim %d is not in 1..%d", (int)ndim, CAE_MAX_DIMS);
  }
  if (!dims) return INVALID(ctx, "tensor_alloc: dims is NULL");
  for (int32_t i = 0; i < ndim; ++i) {
    if (dims[i] < 1) {
      return INVALID(ctx, "tensor_alloc: dimension %d is %lld, must be >= 1", (int)i,
                     (long long)dims[i]);
    }
    if (count > INT64_MAX / 4 / dims[i]) return INVALID(ctx, "tensor_alloc: too many elements");
    count *= dims[i];
  }
  t = calloc(1, sizeof *t);
  if (t) {
    t->data = ctx->zero_tensors ? calloc((size_t)count, sizeof(float))
                                : malloc((size_t)count * sizeof(float));
  }
  if (!t || !t->data) {
    free(t);
    return fail(ctx, CAE_STATUS_OUT_OF_MEMORY, "tensor_alloc: cannot allocate %lld bytes",
                (long long)(count * (int64_t)sizeof(float)));
  }
  t->ndim = ndim;
  memcpy(t->dims, dims, (size_t)ndim * sizeof *dims);
  t->count = count;
  /* Link it into the context's list. */
  t->next = ctx->tensors;
  if (ctx->tensors) ctx->tensors->prev = t;
  ctx->tensors = t;
  ctx->bytes_in_use += (uint64_t)count * sizeof(float);
  if (ctx->bytes_in_use > ctx->peak_bytes) ctx->peak_bytes = ctx->bytes_in_use;
  *out = t;
  return CAE_STATUS_OK;
}

static void tensor_free(cae_context ctx, cae_tensor t) {
  if (!t) return;
  if (t->prev) t->prev->next = t->next;
  if (t->next) t->next->prev = t->prev;
  if (ctx->tensors == t) ctx->tensors = t->next;
  ctx->bytes_in_use -= (uint64_t)t->count * sizeof(float);
  free_tensor_memory(t);
}

/* A copy between host memory and tensor t must cover the whole tensor. */
static cae_status need_whole_tensor(cae_context ctx, const char* op, cae_tensor t,
                                    const float* host, size_t count) {
  char text[96];
  TRY(need_tensor(ctx, op, "tensor", t));
  if (!host) return INVALID(ctx, "%s: host buffer is NULL", op);
  if ((int64_t)count != t->count) {
    return INVALID(ctx, "%s: count is %zu, the tensor %s has %lld elements", op, count,
                   dims_text(t, text, sizeof text), (long long)t->count);
  }
  return CAE_STATUS_OK;
}

/* Host memory is this backend's "device", and it keeps the boundary layout
 * (NCHW, OIHW, row-major) inside: upload and download are plain copies. A
 * device backend would copy (and perhaps re-layout) here. */
static cae_status tensor_upload(cae_context ctx, cae_tensor t, const float* src, size_t count) {
  TRY(need_whole_tensor(ctx, "tensor_upload", t, src, count));
  memcpy(t->data, src, count * sizeof(float));
  return CAE_STATUS_OK;
}

static cae_status tensor_download(cae_context ctx, cae_tensor t, float* dst, size_t count) {
  TRY(need_whole_tensor(ctx, "tensor_download", t, dst, count));
  memcpy(dst, t->data, count * sizeof(float));
  return CAE_STATUS_OK;
}

/* ==== 6. ops ============================================================== */
/* Indexing: x[n,c,i,j] of an NCHW tensor is data[((n*C + c)*H + i)*W + j].
 * Every output is computed as a sum gathered into one float64 variable, in a
 * fixed order, then stored: outputs are overwritten (never accumulated into),
 * and the results do not depend on timing (deterministic). */

/* y[n,o,i,j] = b[o] + sum over c, ky, kx of w[o,c,ky,kx] * x[n,c,i+ky-pad,j+kx-pad],
 * where x is zero outside the image ("same" padding); then ReLU if asked. */
static cae_status conv2d_forward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b,
                                 cae_tensor y, int32_t fuse_relu) {
  const char* op = "conv2d_forward";
  conv_shape s;
  TRY(conv_shape_of(ctx, op, x, w, &s));
  TRY(need_ndim(ctx, op, "b", b, 1));
  TRY(need_count(ctx, op, "b", b, s.o));
  TRY(need_shape4(ctx, op, "y", y, s.n, s.o, s.h, s.w));
  if (fuse_relu != 0 && fuse_relu != 1) {
    return INVALID(ctx, "%s: fuse_relu is %d, must be 0 or 1", op, (int)fuse_relu);
  }
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t o = 0; o < s.o; ++o)
      for (int64_t i = 0; i < s.h; ++i)
        for (int64_t j = 0; j < s.w; ++j) {
          double sum = b->data[o];
          for (int64_t c = 0; c < s.c; ++c)
            for (int64_t ky = 0; ky < s.k; ++ky) {
              const int64_t xi = i + ky - s.pad;
              if (xi < 0 || xi >= s.h) continue;
              for (int64_t kx = 0; kx < s.k; ++kx) {
                const int64_t xj = j + kx - s.pad;
                if (xj < 0 || xj >= s.w) continue;
                sum += (double)w->data[((o * s.c + c) * s.k + ky) * s.k + kx] *
                       x->data[((n * s.c + c) * s.h + xi) * s.w + xj];
              }
            }
          if (fuse_relu && sum < 0.0) sum = 0.0;
          y->data[((n * s.o + o) * s.h + i) * s.w + j] = (float)sum;
        }
  return CAE_STATUS_OK;
}

/* The three gradients of the convolution above, each gathered per element:
 *   dx[n,c,i,j]    = sum over o, ky, kx of w[o,c,ky,kx] * dy[n,o,i-ky+pad,j-kx+pad]
 *   dw[o,c,ky,kx]  = sum over n, i, j of dy[n,o,i,j] * x[n,c,i+ky-pad,j+kx-pad]
 *   db[o]          = sum over n, i, j of dy[n,o,i,j]
 * dx may be NULL (the first layer needs no input gradient). */
static cae_status conv2d_backward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy,
                                  cae_tensor dx, cae_tensor dw, cae_tensor db) {
  const char* op = "conv2d_backward";
  conv_shape s;
  TRY(conv_shape_of(ctx, op, x, w, &s));
  TRY(need_shape4(ctx, op, "dy", dy, s.n, s.o, s.h, s.w));
  if (dx) TRY(need_shape4(ctx, op, "dx", dx, s.n, s.c, s.h, s.w));
  TRY(need_shape4(ctx, op, "dw", dw, s.o, s.c, s.k, s.k));
  TRY(need_ndim(ctx, op, "db", db, 1));
  TRY(need_count(ctx, op, "db", db, s.o));

  for (int64_t n = 0; dx && n < s.n; ++n)
    for (int64_t c = 0; c < s.c; ++c)
      for (int64_t i = 0; i < s.h; ++i)
        for (int64_t j = 0; j < s.w; ++j) {
          double sum = 0.0;
          for (int64_t o = 0; o < s.o; ++o)
            for (int64_t ky = 0; ky < s.k; ++ky) {
              const int64_t yi = i - ky + s.pad;
              if (yi < 0 || yi >= s.h) continue;
              for (int64_t kx = 0; kx < s.k; ++kx) {
                const int64_t yj = j - kx + s.pad;
                if (yj < 0 || yj >= s.w) continue;
                sum += (double)w->data[((o * s.c + c) * s.k + ky) * s.k + kx] *
                       dy->data[((n * s.o + o) * s.h + yi) * s.w + yj];
              }
            }
          dx->data[((n * s.c + c) * s.h + i) * s.w + j] = (float)sum;
        }

  for (int64_t o = 0; o < s.o; ++o)
    for (int64_t c = 0; c < s.c; ++c)
      for (int64_t ky = 0; ky < s.k; ++ky)
        for (int64_t kx = 0; kx < s.k; ++kx) {
          double sum = 0.0;
          for (int64_t n = 0; n < s.n; ++n)
            for (int64_t i = 0; i < s.h; ++i) {
              const int64_t xi = i + ky - s.pad;
              if (xi < 0 || xi >= s.h) continue;
              for (int64_t j = 0; j < s.w; ++j) {
                const int64_t xj = j + kx - s.pad;
                if (xj < 0 || xj >= s.w) continue;
                sum += (double)dy->data[((n * s.o + o) * s.h + i) * s.w + j] *
                       x->data[((n * s.c + c) * s.h + xi) * s.w + xj];
              }
            }
          dw->data[((o * s.c + c) * s.k + ky) * s.k + kx] = (float)sum;
        }

  for (int64_t o = 0; o < s.o; ++o) {
    double sum = 0.0;
    for (int64_t n = 0; n < s.n; ++n)
      for (int64_t p = 0; p < s.h * s.w; ++p) sum += dy->data[(n * s.o + o) * s.h * s.w + p];
    db->data[o] = (float)sum;
  }
  return CAE_STATUS_OK;
}

/* y = max(x, 0). y may be x (in place): each element is read before it is written. */
static cae_status relu_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  TRY(need_tensor(ctx, "relu_forward", "x", x));
  TRY(need_count(ctx, "relu_forward", "y", y, x->count));
  for (int64_t i = 0; i < x->count; ++i) y->data[i] = x->data[i] > 0.0f ? x->data[i] : 0.0f;
  return CAE_STATUS_OK;
}

/* dx = dy where the ReLU's output y > 0, else 0. dx may be dy (in place). */
static cae_status relu_backward(cae_context ctx, cae_tensor y, cae_tensor dy, cae_tensor dx) {
  TRY(need_tensor(ctx, "relu_backward", "y", y));
  TRY(need_count(ctx, "relu_backward", "dy", dy, y->count));
  TRY(need_count(ctx, "relu_backward", "dx", dx, y->count));
  for (int64_t i = 0; i < y->count; ++i) dx->data[i] = y->data[i] > 0.0f ? dy->data[i] : 0.0f;
  return CAE_STATUS_OK;
}

/* x [N,C,H,W] with H and W even; the output is [N,C,H/2,W/2]. */
static cae_status pool_shape_of(cae_context ctx, const char* op, cae_tensor x, int64_t* planes,
                                int64_t* h, int64_t* w) {
  char text[96];
  TRY(need_ndim(ctx, op, "x", x, 4));
  if (x->dims[2] % 2 || x->dims[3] % 2) {
    return INVALID(ctx, "%s: x%s must have an even height and width", op,
                   dims_text(x, text, sizeof text));
  }
  *planes = x->dims[0] * x->dims[1];
  *h = x->dims[2];
  *w = x->dims[3];
  return CAE_STATUS_OK;
}

/* Index, inside plane `plane` of an [.., h, w] tensor, of the element that
 * wins the 2x2 window at (i, j) of the pooled output: the FIRST of (0,0),
 * (0,1), (1,0), (1,1) equal to the window's max -- the ABI's tie rule. */
static int64_t window_argmax(const float* plane, int64_t w, int64_t i, int64_t j) {
  const int64_t top_left = (2 * i) * w + 2 * j;
  const int64_t candidates[4] = {top_left, top_left + 1, top_left + w, top_left + w + 1};
  int64_t best = candidates[0];
  for (int q = 1; q < 4; ++q) {
    /* Strictly greater: on a tie the earlier candidate stays the winner. */
    if (plane[candidates[q]] > plane[best]) best = candidates[q];
  }
  return best;
}

static cae_status maxpool2x2_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  const char* op = "maxpool2x2_forward";
  int64_t planes = 0, h = 0, w = 0;
  TRY(pool_shape_of(ctx, op, x, &planes, &h, &w));
  TRY(need_shape4(ctx, op, "y", y, x->dims[0], x->dims[1], h / 2, w / 2));
  for (int64_t p = 0; p < planes; ++p) {
    const float* in = x->data + p * h * w;
    float* out = y->data + p * (h / 2) * (w / 2);
    for (int64_t i = 0; i < h / 2; ++i)
      for (int64_t j = 0; j < w / 2; ++j) out[i * (w / 2) + j] = in[window_argmax(in, w, i, j)];
  }
  return CAE_STATUS_OK;
}

/* Each window's gradient goes to its winner (same tie rule); the other three get 0. */
static cae_status maxpool2x2_backward(cae_context ctx, cae_tensor x, cae_tensor dy, cae_tensor dx) {
  const char* op = "maxpool2x2_backward";
  int64_t planes = 0, h = 0, w = 0;
  TRY(pool_shape_of(ctx, op, x, &planes, &h, &w));
  TRY(need_shape4(ctx, op, "dy", dy, x->dims[0], x->dims[1], h / 2, w / 2));
  TRY(need_shape4(ctx, op, "dx", dx, x->dims[0], x->dims[1], h, w));
  memset(dx->data, 0, (size_t)dx->count * sizeof(float));
  for (int64_t p = 0; p < planes; ++p) {
    const float* in = x->data + p * h * w;
    const float* grad_out = dy->data + p * (h / 2) * (w / 2);
    float* grad_in = dx->data + p * h * w;
    for (int64_t i = 0; i < h / 2; ++i)
      for (int64_t j = 0; j < w / 2; ++j)
        grad_in[window_argmax(in, w, i, j)] = grad_out[i * (w / 2) + j];
  }
  return CAE_STATUS_OK;
}

/* y[n,c,i,j] = x[n,c,i/2,j/2] for y [N,C,2H,2W]. */
static cae_status upsample2x_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  const char* op = "upsample2x_forward";
  TRY(need_ndim(ctx, op, "x", x, 4));
  const int64_t planes = x->dims[0] * x->dims[1], h = x->dims[2], w = x->dims[3];
  TRY(need_shape4(ctx, op, "y", y, x->dims[0], x->dims[1], 2 * h, 2 * w));
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t i = 0; i < 2 * h; ++i)
      for (int64_t j = 0; j < 2 * w; ++j)
        y->data[(p * 2 * h + i) * 2 * w + j] = x->data[(p * h + i / 2) * w + j / 2];
  return CAE_STATUS_OK;
}

/* dx [N,C,H,W]: each element is the sum of its 2x2 block of dy [N,C,2H,2W]. */
static cae_status upsample2x_backward(cae_context ctx, cae_tensor dy, cae_tensor dx) {
  const char* op = "upsample2x_backward";
  char text[96];
  TRY(need_ndim(ctx, op, "dy", dy, 4));
  if (dy->dims[2] % 2 || dy->dims[3] % 2) {
    return INVALID(ctx, "%s: dy%s must have an even height and width", op,
                   dims_text(dy, text, sizeof text));
  }
  const int64_t planes = dy->dims[0] * dy->dims[1], h = dy->dims[2] / 2, w = dy->dims[3] / 2;
  TRY(need_shape4(ctx, op, "dx", dx, dy->dims[0], dy->dims[1], h, w));
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t i = 0; i < h; ++i)
      for (int64_t j = 0; j < w; ++j) {
        const float* block = dy->data + (p * 2 * h + 2 * i) * 2 * w + 2 * j;
        dx->data[(p * h + i) * w + j] =
            (float)((double)block[0] + block[1] + block[2 * w] + block[2 * w + 1]);
      }
  return CAE_STATUS_OK;
}

/* loss[0] = sum((pred - target)^2) / E and, unless grad is NULL,
 * grad = 2 * (pred - target) / E, over all E elements. */
static cae_status mse_loss(cae_context ctx, cae_tensor pred, cae_tensor target, cae_tensor loss,
                           cae_tensor grad) {
  const char* op = "mse_loss";
  TRY(need_tensor(ctx, op, "pred", pred));
  TRY(need_count(ctx, op, "target", target, pred->count));
  TRY(need_count(ctx, op, "loss", loss, 1));
  if (grad) TRY(need_count(ctx, op, "grad", grad, pred->count));
  const double elements = (double)pred->count;
  double sum = 0.0;
  for (int64_t i = 0; i < pred->count; ++i) {
    const double diff = (double)pred->data[i] - target->data[i];
    sum += diff * diff;
    if (grad) grad->data[i] = (float)(2.0 * diff / elements);
  }
  loss->data[0] = (float)(sum / elements);
  return CAE_STATUS_OK;
}

/* g = grad + weight_decay * param; velocity = momentum * velocity + g;
 * param -= learning_rate * velocity. Plain SGD when momentum is 0 and velocity NULL. */
static cae_status sgd_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor velocity,
                           float learning_rate, float momentum, float weight_decay) {
  const char* op = "sgd_step";
  TRY(need_tensor(ctx, op, "param", param));
  TRY(need_count(ctx, op, "grad", grad, param->count));
  if (velocity) {
    TRY(need_count(ctx, op, "velocity", velocity, param->count));
  } else if (momentum != 0.0f) {
    return INVALID(ctx, "%s: velocity is NULL but momentum is %g", op, (double)momentum);
  }
  for (int64_t i = 0; i < param->count; ++i) {
    const double g = (double)grad->data[i] + (double)weight_decay * param->data[i];
    double update = g;
    if (velocity) {
      update = (double)momentum * velocity->data[i] + g;
      velocity->data[i] = (float)update;
    }
    param->data[i] = (float)(param->data[i] - (double)learning_rate * update);
  }
  return CAE_STATUS_OK;
}

/* Adam with bias correction; see the formulas at adam_step in <cae/backend.h>. */
static cae_status adam_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m,
                            cae_tensor v, const cae_adam_params* p) {
  const char* op = "adam_step";
  TRY(need_tensor(ctx, op, "param", param));
  TRY(need_count(ctx, op, "grad", grad, param->count));
  TRY(need_count(ctx, op, "m", m, param->count));
  TRY(need_count(ctx, op, "v", v, param->count));
  if (!p) return INVALID(ctx, "%s: params is NULL", op);
  if (p->step < 1) return INVALID(ctx, "%s: step is %d, must be >= 1", op, (int)p->step);
  const double correction1 = 1.0 - pow(p->beta1, p->step);
  const double correction2 = 1.0 - pow(p->beta2, p->step);
  for (int64_t i = 0; i < param->count; ++i) {
    const double g = (double)grad->data[i] + (double)p->weight_decay * param->data[i];
    const double mi = (double)p->beta1 * m->data[i] + (1.0 - p->beta1) * g;
    const double vi = (double)p->beta2 * v->data[i] + (1.0 - p->beta2) * g * g;
    m->data[i] = (float)mi;
    v->data[i] = (float)vi;
    param->data[i] = (float)(param->data[i] - (double)p->learning_rate * (mi / correction1) /
                                                  (sqrt(vi / correction2) + p->epsilon));
  }
  return CAE_STATUS_OK;
}

/* K [n,m] from X [n,d] and Y [m,d]: dot products (LINEAR) or
 * exp(-gamma * squared distance) (RBF). X and Y may be the same tensor. */
static cae_status kernel_matrix(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor k,
                                int32_t kind, float gamma) {
  const char* op = "kernel_matrix";
  char xs[96], ys[96], ks[96];
  TRY(need_ndim(ctx, op, "x", x, 2));
  TRY(need_ndim(ctx, op, "y", y, 2));
  TRY(need_ndim(ctx, op, "k", k, 2));
  const int64_t rows = x->dims[0], cols = y->dims[0], d = x->dims[1];
  if (y->dims[1] != d || k->dims[0] != rows || k->dims[1] != cols) {
    return INVALID(ctx, "%s: x%s, y%s and k%s do not fit: need x [n,d], y [m,d], k [n,m]", op,
                   dims_text(x, xs, sizeof xs), dims_text(y, ys, sizeof ys),
                   dims_text(k, ks, sizeof ks));
  }
  if (kind != CAE_KERNEL_LINEAR && kind != CAE_KERNEL_RBF) {
    return INVALID(ctx, "%s: unknown kernel kind %d", op, (int)kind);
  }
  if (kind == CAE_KERNEL_RBF && !(gamma > 0.0f)) {
    return INVALID(ctx, "%s: rbf gamma is %g, must be > 0", op, (double)gamma);
  }
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      const float* xi = x->data + i * d;
      const float* yj = y->data + j * d;
      double sum = 0.0;
      for (int64_t q = 0; q < d; ++q) {
        const double term = kind == CAE_KERNEL_LINEAR ? (double)xi[q] * yj[q]
                                                      : ((double)xi[q] - yj[q]) * (xi[q] - yj[q]);
        sum += term;
      }
      k->data[i * cols + j] = (float)(kind == CAE_KERNEL_LINEAR ? sum : exp(-(double)gamma * sum));
    }
  return CAE_STATUS_OK;
}

/* Every op above finishes before it returns: nothing is ever pending. */
static cae_status synchronize(cae_context ctx) {
  (void)ctx;
  return CAE_STATUS_OK;
}

/* Optional: bytes of tensors this context holds now and at most. */
static cae_status memory_stats(cae_context ctx, uint64_t* in_use_bytes, uint64_t* peak_bytes) {
  if (!in_use_bytes || !peak_bytes) return INVALID(ctx, "memory_stats: NULL output");
  *in_use_bytes = ctx->bytes_in_use;
  *peak_bytes = ctx->peak_bytes;
  return CAE_STATUS_OK;
}

/* ==== 7. graphs (ABI 1.5, optional) ===================================== */

/* A backend may leave graph_compile, graph_run and graph_destroy NULL: the
 * host then runs every computation op by op (the first path, sections 5-6).
 * This template offers the second path the simplest correct way: a graph is
 * kept as its description and run node by node through the ops above, so it
 * gives exactly the op path's results. A backend for an accelerator starts
 * here and then does what only a whole graph allows: fuse nodes (a bias and
 * ReLU into a convolution's epilogue), keep INTERNAL tensors in its own
 * layout or precision, capture the run once and replay it. A C++ backend can
 * instead take plugins/common/graph_interpreter.hpp in one line. */

struct cae_graph_s {
  cae_context ctx;
  int32_t tensor_count, node_count;
  cae_graph_tensor* tensors;
  cae_graph_node* nodes;
  cae_tensor* internal; /* per tensor index; NULL for the host's tensors */
};

/* Tensor arguments per op (backend.h, cae_graph_op) and which of them the op
 * writes (bit i: argument i), to check that no internal tensor is read before
 * a node writes it. */
static const int op_args[] = {4, 6, 2, 3, 2, 3, 2, 2, 4, 3, 4};
static const unsigned op_writes[] = {0x8, 0x38, 0x2, 0x4, 0x2, 0x4, 0x2, 0x2, 0xc, 0x5, 0xd};
#define GRAPH_OP_COUNT ((int32_t)(sizeof op_args / sizeof op_args[0]))

static void graph_destroy(cae_context ctx, cae_graph graph) {
  if (graph == NULL) return;
  for (int32_t i = 0; graph->internal && i < graph->tensor_count; ++i) tensor_free(ctx, graph->internal[i]);
  free(graph->internal);
  free(graph->tensors);
  free(graph->nodes);
  free(graph);
}

/* One node: the op member it names, with its tensors and scalars. */
static cae_status run_node(cae_context ctx, const cae_graph_node* n, cae_tensor* t,
                           const cae_graph_run_params* params) {
#define ARG(i) (n->args[i] >= 0 ? t[n->args[i]] : NULL)
  if ((n->op == CAE_GRAPH_SGD_STEP || n->op == CAE_GRAPH_ADAM_STEP) &&
      (params == NULL || params->struct_size < sizeof *params))
    return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "graph_run: an update needs the run's parameters");
  switch (n->op) {
    case CAE_GRAPH_CONV2D_FORWARD: return conv2d_forward(ctx, ARG(0), ARG(1), ARG(2), ARG(3), n->fuse_relu);
    case CAE_GRAPH_CONV2D_BACKWARD: return conv2d_backward(ctx, ARG(0), ARG(1), ARG(2), ARG(3), ARG(4), ARG(5));
    case CAE_GRAPH_RELU_FORWARD: return relu_forward(ctx, ARG(0), ARG(1));
    case CAE_GRAPH_RELU_BACKWARD: return relu_backward(ctx, ARG(0), ARG(1), ARG(2));
    case CAE_GRAPH_MAXPOOL2X2_FORWARD: return maxpool2x2_forward(ctx, ARG(0), ARG(1));
    case CAE_GRAPH_MAXPOOL2X2_BACKWARD: return maxpool2x2_backward(ctx, ARG(0), ARG(1), ARG(2));
    case CAE_GRAPH_UPSAMPLE2X_FORWARD: return upsample2x_forward(ctx, ARG(0), ARG(1));
    case CAE_GRAPH_UPSAMPLE2X_BACKWARD: return upsample2x_backward(ctx, ARG(0), ARG(1));
    case CAE_GRAPH_MSE_LOSS: return mse_loss(ctx, ARG(0), ARG(1), ARG(2), ARG(3));
    case CAE_GRAPH_SGD_STEP:
      return sgd_step(ctx, ARG(0), ARG(1), ARG(2), params->learning_rate, n->momentum, n->weight_decay);
    case CAE_GRAPH_ADAM_STEP: {
      const cae_adam_params adam = {params->learning_rate, n->beta1, n->beta2,
                                    n->epsilon, n->weight_decay, params->adam_step};
      return adam_step(ctx, ARG(0), ARG(1), ARG(2), ARG(3), &adam);
    }
    default: return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "graph: unknown op %d", n->op);
  }
#undef ARG
}

/* Runs every node on `t` (one handle per tensor index). */
static cae_status run_nodes(cae_graph g, cae_tensor* t, const cae_graph_run_params* params) {
  for (int32_t i = 0; i < g->node_count; ++i) {
    const cae_status status = run_node(g->ctx, &g->nodes[i], t, params);
    if (status != CAE_STATUS_OK) return status; /* the op's message names the problem */
  }
  return CAE_STATUS_OK;
}

/* Indices, roles and the order of writes and reads checked here; shapes by
 * running the graph once on zero-filled scratch tensors, since every op
 * checks its own arguments (slow, but the template is readable first). */
static cae_status check_graph(cae_graph g) {
  char* written = calloc((size_t)g->tensor_count, 1);
  cae_tensor* scratch = calloc((size_t)g->tensor_count, sizeof *scratch);
  cae_status status = written && scratch ? CAE_STATUS_OK
                                         : fail(g->ctx, CAE_STATUS_OUT_OF_MEMORY, "graph: host memory");
  for (int32_t i = 0; status == CAE_STATUS_OK && i < g->tensor_count; ++i) {
    const cae_graph_tensor* d = &g->tensors[i];
    if (d->role < CAE_GRAPH_INPUT || d->role > CAE_GRAPH_INTERNAL)
      status = fail(g->ctx, CAE_STATUS_INVALID_ARGUMENT, "graph tensor %d: unknown role %d", i, d->role);
    else if (d->role != CAE_GRAPH_INTERNAL)
      status = tensor_alloc(g->ctx, d->ndim, d->dims, &scratch[i]);
    written[i] = d->role == CAE_GRAPH_INPUT || d->role == CAE_GRAPH_PARAMETER ||
                 d->role == CAE_GRAPH_OPTIMIZER_STATE;
  }
  for (int32_t i = 0; status == CAE_STATUS_OK && i < g->node_count; ++i) {
    const cae_graph_node* n = &g->nodes[i];
    if (n->op == CAE_GRAPH_ALL_REDUCE_SUM) {
      /* ABI 1.6: the gradient exchange as a node. This template has no
       * group members, so the host exchanges gradients itself: say so. */
      status = fail(g->ctx, CAE_STATUS_UNSUPPORTED, "graph node %d: the exchange is left to the host", i);
      break;
    }
    if (n->op < 0 || n->op >= GRAPH_OP_COUNT) {
      status = fail(g->ctx, CAE_STATUS_INVALID_ARGUMENT, "graph node %d: unknown op %d", i, n->op);
      break;
    }
    for (int a = 0; status == CAE_STATUS_OK && a < CAE_GRAPH_MAX_ARGS; ++a) {
      const int32_t t = n->args[a];
      if (t < -1 || t >= g->tensor_count || (a >= op_args[n->op] && t != -1))
        status = fail(g->ctx, CAE_STATUS_INVALID_ARGUMENT, "graph node %d: argument %d is %d", i, a, t);
      else if (t >= 0 && !(op_writes[n->op] >> a & 1u) && !written[t])
        status = fail(g->ctx, CAE_STATUS_INVALID_ARGUMENT,
                      "graph node %d: reads tensor %d before any node writes it", i, t);
    }
    for (int a = 0; status == CAE_STATUS_OK && a < op_args[n->op]; ++a) {
      if (n->args[a] >= 0 && (op_writes[n->op] >> a & 1u)) written[n->args[a]] = 1;
    }
  }
  for (int32_t i = 0; status == CAE_STATUS_OK && i < g->tensor_count; ++i) {
    if (!scratch[i]) scratch[i] = g->internal[i];
    else if (g->ctx->zero_tensors == 0) memset(scratch[i]->data, 0, (size_t)scratch[i]->count * sizeof(float));
  }
  if (status == CAE_STATUS_OK) {
    const cae_graph_run_params dry = {sizeof dry, 0.0f, 1, 0};
    status = run_nodes(g, scratch, &dry);
  }
  for (int32_t i = 0; scratch && i < g->tensor_count; ++i) {
    if (scratch[i] && scratch[i] != g->internal[i]) tensor_free(g->ctx, scratch[i]);
  }
  free(scratch);
  free(written);
  return status;
}

/* Multiply-adds of one run's convolutions (a backward pass counts twice);
 * nodes with arguments out of range are left to check_graph, which refuses them. */
static double graph_work(cae_graph g) {
  double work = 0;
  for (int32_t i = 0; i < g->node_count; ++i) {
    const cae_graph_node* n = &g->nodes[i];
    if (n->op != CAE_GRAPH_CONV2D_FORWARD && n->op != CAE_GRAPH_CONV2D_BACKWARD) continue;
    const int32_t x = n->args[0], w = n->args[1];
    if (x < 0 || x >= g->tensor_count || w < 0 || w >= g->tensor_count) continue;
    const int64_t* xd = g->tensors[x].dims;
    const int64_t* wd = g->tensors[w].dims;
    if (g->tensors[x].ndim != 4 || g->tensors[w].ndim != 4) continue;
    const double per_run = (double)xd[0] * (double)(xd[2] * xd[3]) * (double)(wd[0] * wd[1] * wd[2] * wd[3]);
    work += n->op == CAE_GRAPH_CONV2D_FORWARD ? per_run : 2.0 * per_run;
  }
  return work;
}

/* This template runs a graph node by node through its plain loops, no
 * faster than the host's op path. So it declines (UNSUPPORTED) a graph of
 * more convolution work than about two 32x32 images' training steps: the
 * host runs such a graph op by op, through the same ops, and cae-conformance,
 * which checks every graph a backend compiles at every batch the host runs,
 * notes it instead of waiting hours on loops this slow. A backend that is
 * faster on whole graphs compiles them all, and must pass them all. */
#define GRAPH_MOST_MULTIPLY_ADDS 1073741824.0 /* 2^30 */

static cae_status graph_compile(cae_context ctx, const cae_graph_desc* desc, cae_graph* out) {
  if (out) *out = NULL;
  if (!ctx || !desc || !out) return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "graph_compile: NULL argument");
  if (desc->struct_size < sizeof *desc || desc->tensor_stride < sizeof(cae_graph_tensor) ||
      desc->node_stride < sizeof(cae_graph_node) || desc->tensor_count < 1 || desc->node_count < 1 ||
      !desc->tensors || !desc->nodes)
    return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "graph_compile: malformed description");
  cae_graph g = calloc(1, sizeof *g);
  if (!g) return fail(ctx, CAE_STATUS_OUT_OF_MEMORY, "graph_compile: host memory");
  g->ctx = ctx;
  g->tensor_count = desc->tensor_count;
  g->node_count = desc->node_count;
  g->tensors = malloc((size_t)g->tensor_count * sizeof *g->tensors);
  g->nodes = malloc((size_t)g->node_count * sizeof *g->nodes);
  g->internal = calloc((size_t)g->tensor_count, sizeof *g->internal);
  cae_status status = g->tensors && g->nodes && g->internal
                          ? CAE_STATUS_OK
                          : fail(ctx, CAE_STATUS_OUT_OF_MEMORY, "graph_compile: host memory");
  /* Entries at the caller's stride: a newer host's longer entries still read right. */
  for (int32_t i = 0; status == CAE_STATUS_OK && i < g->tensor_count; ++i) {
    memcpy(&g->tensors[i], (const char*)desc->tensors + (size_t)i * desc->tensor_stride, sizeof *g->tensors);
    if (g->tensors[i].role == CAE_GRAPH_INTERNAL)
      status = tensor_alloc(ctx, g->tensors[i].ndim, g->tensors[i].dims, &g->internal[i]);
  }
  for (int32_t i = 0; status == CAE_STATUS_OK && i < g->node_count; ++i) {
    memcpy(&g->nodes[i], (const char*)desc->nodes + (size_t)i * desc->node_stride, sizeof *g->nodes);
  }
  if (status == CAE_STATUS_OK && graph_work(g) > GRAPH_MOST_MULTIPLY_ADDS)
    status = fail(ctx, CAE_STATUS_UNSUPPORTED,
                  "graph_compile: %.3g multiply-adds per run, more than this plain-loop backend runs "
                  "as a graph (the host runs it op by op)", graph_work(g));
  if (status == CAE_STATUS_OK) status = check_graph(g);
  if (status != CAE_STATUS_OK) {
    graph_destroy(ctx, g);
    return status;
  }
  *out = g;
  return CAE_STATUS_OK;
}

static cae_status graph_run(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
                            int32_t binding_count, const cae_graph_run_params* params) {
  if (!ctx || !graph || graph->ctx != ctx || !bindings)
    return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "graph_run: NULL or foreign argument");
  if (binding_count != graph->tensor_count)
    return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "graph_run: %d bindings for %d tensors",
                binding_count, graph->tensor_count);
  cae_tensor* t = malloc((size_t)binding_count * sizeof *t);
  if (!t) return fail(ctx, CAE_STATUS_OUT_OF_MEMORY, "graph_run: host memory");
  cae_status status = CAE_STATUS_OK;
  for (int32_t i = 0; status == CAE_STATUS_OK && i < binding_count; ++i) {
    const int internal = graph->tensors[i].role == CAE_GRAPH_INTERNAL;
    if (internal != (bindings[i] == NULL))
      status = fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "graph_run: binding %d must %s", i,
                    internal ? "be NULL (an internal tensor)" : "be a tensor");
    t[i] = internal ? graph->internal[i] : bindings[i];
    /* A graph is compiled for one shape: never run it on tensors of another
     * batch, even where no op would notice. */
    int same = internal || t[i]->ndim == graph->tensors[i].ndim;
    for (int32_t k = 0; same && !internal && k < t[i]->ndim; ++k) same = t[i]->dims[k] == graph->tensors[i].dims[k];
    if (status == CAE_STATUS_OK && !same)
      status = fail(ctx, CAE_STATUS_INVALID_ARGUMENT,
                    "graph_run: binding %d has another shape than the graph was compiled for", i);
  }
  if (status == CAE_STATUS_OK) status = run_nodes(graph, t, params);
  free(t);
  return status;
}

/* ==== 8. the table and the entry point ==================================== */

/* Constant and statically allocated, as the ABI requires. Designated
 * initialisers leave every member not named NULL: here the optional timer
 * (timer_start, timer_stop), the collectives and the page-locked host memory,
 * which the host then treats as unsupported. */
static const cae_backend_table backend_table = {
    .struct_size = sizeof(cae_backend_table),
    .abi_major = CAE_ABI_MAJOR,
    .abi_minor = CAE_ABI_MINOR,
    .name = BACKEND_NAME,
    .version = BACKEND_VERSION,
    .description = BACKEND_DESCRIPTION,
    .probe = probe,
    .create = create,
    .destroy = destroy,
    .last_error = last_error,
    .device_info = device_info,
    .tensor_alloc = tensor_alloc,
    .tensor_free = tensor_free,
    .tensor_upload = tensor_upload,
    .tensor_download = tensor_download,
    .conv2d_forward = conv2d_forward,
    .conv2d_backward = conv2d_backward,
    .relu_forward = relu_forward,
    .relu_backward = relu_backward,
    .maxpool2x2_forward = maxpool2x2_forward,
    .maxpool2x2_backward = maxpool2x2_backward,
    .upsample2x_forward = upsample2x_forward,
    .upsample2x_backward = upsample2x_backward,
    .mse_loss = mse_loss,
    .sgd_step = sgd_step,
    .adam_step = adam_step,
    .kernel_matrix = kernel_matrix,
    .synchronize = synchronize,
    .memory_stats = memory_stats,
    .option_count = option_count,
    .option_describe = option_describe,
    .create_with_options = create_with_options,
    /* The second path: remove these three and the host runs op by op. */
    .graph_compile = graph_compile,
    .graph_run = graph_run,
    .graph_destroy = graph_destroy,
};

/* The one exported symbol. A host of another ABI major gets NULL, and
 * `cae backends -v` then reports an "ABI major mismatch". */
CAE_BACKEND_EXPORT const cae_backend_table* cae_backend_get_table(uint32_t host_abi_major) {
  return host_abi_major == CAE_ABI_MAJOR ? &backend_table : NULL;
}
