/*
 * A deliberately small backend written in plain C99 against api/cae/backend.h
 * alone. The tests compile it OUTSIDE the build tree to prove that a
 * third-party backend needs nothing but the ABI header, and build it with
 * STUB_* switches into the broken plugins the loader tests need.
 *
 * It keeps tensors in host memory and implements only relu_forward and
 * relu_backward; every other op is NULL ("unsupported"). With STUB_FAILING_OP
 * relu_forward always fails with a device error. With STUB_OPTIONS it declares
 * one option of each type (ABI 1.4), whose values show in device_info and in
 * relu_forward's output, so a test can see that they arrived.
 * STUB_GREEDY declares priority 1000 and a conv2d_forward that computes the
 * wrong thing (it writes the bias alone): it must never become the default
 * backend. STUB_SLOW_CONV=S makes conv2d_forward sleep S seconds per call:
 * certification must still end.
 */
#include <cae/backend.h>
#include <cae/option_text.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef STUB_SLOW_CONV
#include <unistd.h>
#endif

#ifndef STUB_NAME
#define STUB_NAME "minimal"
#endif

struct cae_context_s {
  char last_error[256];
  float scale;          /* option "scale": relu_forward multiplies its output by it */
  int32_t units;        /* option "units": device_info's compute_units */
  int32_t exact;        /* option "exact": device_info's deterministic */
  char colour[16];      /* option "colour": appended to device_info's device_name */
};

struct cae_tensor_s {
  int64_t count;
  float* data;
};

static char g_thread_error[256]; /* tests are single-threaded */

static cae_status fail(cae_context ctx, cae_status status, const char* message) {
  char* slot = ctx ? ctx->last_error : g_thread_error;
  snprintf(slot, 256, "%s", message);
  return status;
}

static cae_status probe(cae_probe_result* out) {
  cae_probe_result r;
  size_t n;
  if (!out || out->struct_size < sizeof(uint32_t)) return fail(NULL, CAE_STATUS_INVALID_ARGUMENT, "bad probe struct");
  memset(&r, 0, sizeof r);
  r.struct_size = out->struct_size;
#ifdef STUB_UNAVAILABLE
  r.available = 0;
  strcpy(r.reason, "stub: no such device on this machine");
#else
  r.available = 1;
#endif
#ifdef STUB_GREEDY
  r.priority = 1000; /* asks to be the default */
#else
  r.priority = 1; /* never the default when a real backend is present */
#endif
  r.device_count = 1;
  n = out->struct_size < sizeof r ? out->struct_size : sizeof r;
  memcpy(out, &r, n);
  return CAE_STATUS_OK;
}

static cae_status create(const cae_create_options* options, cae_context* out) {
  (void)options;
  if (!out) return fail(NULL, CAE_STATUS_INVALID_ARGUMENT, "create: out is NULL");
  *out = calloc(1, sizeof(struct cae_context_s));
  if (!*out) return fail(NULL, CAE_STATUS_OUT_OF_MEMORY, "create: out of memory");
  (*out)->scale = 1.0f;
  (*out)->units = 1;
  (*out)->exact = 1;
  return CAE_STATUS_OK;
}

#ifdef STUB_OPTIONS
/* ABI 1.4: one option of each type. */
static const cae_option_desc g_options[] = {
    {sizeof(cae_option_desc), CAE_OPTION_FLOAT, "scale", "1", NULL, 0.25, 4.0,
     "relu_forward multiplies its output by this"},
    {sizeof(cae_option_desc), CAE_OPTION_INT, "units", "1", NULL, 1.0, 64.0,
     "the compute units device_info reports"},
    {sizeof(cae_option_desc), CAE_OPTION_BOOL, "exact", "true", NULL, 0.0, 0.0,
     "whether device_info reports deterministic results"},
    {sizeof(cae_option_desc), CAE_OPTION_ENUM, "colour", "red", "red|green|blue", 0.0, 0.0,
     "a word device_info appends to the device name"}};
#define STUB_OPTION_COUNT ((int32_t)(sizeof g_options / sizeof g_options[0]))

static int32_t option_count(void) { return STUB_OPTION_COUNT; }

static cae_status option_describe(int32_t index, cae_option_desc* out) {
  size_t n;
  if (index < 0 || index >= STUB_OPTION_COUNT || !out || out->struct_size < sizeof(uint32_t))
    return fail(NULL, CAE_STATUS_INVALID_ARGUMENT, "option_describe: no such option");
  n = out->struct_size < sizeof g_options[0] ? out->struct_size : sizeof g_options[0];
  memcpy(out, &g_options[index], n);
  return CAE_STATUS_OK;
}

/* Sets one option on ctx; 0 when the value is not allowed (its canonical
 * text checked as every backend checks it: cae/option_text.h). */
static int apply_option(cae_context ctx, const cae_option_desc* d, const char* text) {
  long long integer = 0;
  double number = 0.0;
  if (!cae_option_value_allowed(d->type, d->min_value, d->max_value, d->choices, text)) return 0;
  if (d->type == CAE_OPTION_FLOAT) {
    cae_option_parse_number(text, &number);
    ctx->scale = (float)number;
  } else if (d->type == CAE_OPTION_INT) {
    cae_option_parse_integer(text, &integer);
    ctx->units = (int32_t)integer;
  } else if (d->type == CAE_OPTION_BOOL) {
    ctx->exact = strcmp(text, "true") == 0;
  } else {
    if (strlen(text) >= sizeof ctx->colour) return 0;
    strcpy(ctx->colour, text);
  }
  return 1;
}

static cae_status create_with_options(const cae_create_options* options,
                                      const cae_option_value* values, int32_t count,
                                      cae_context* out) {
  char message[256];
  int32_t i, j, k;
  cae_status status = create(options, out);
  if (status != CAE_STATUS_OK) return status;
  strcpy((*out)->colour, "red");
  for (i = 0; i < count; ++i) {
    const cae_option_desc* d = NULL;
    status = CAE_STATUS_INVALID_ARGUMENT;
    for (k = 0; k < STUB_OPTION_COUNT && values[i].name; ++k)
      if (strcmp(values[i].name, g_options[k].name) == 0) d = &g_options[k];
    for (j = 0; j < i && d; ++j)
      if (strcmp(values[j].name, d->name) == 0) break;
    if (!d) {
      status = CAE_STATUS_UNSUPPORTED;
      snprintf(message, sizeof message, "create: no option '%s' (options: scale, units, exact, colour)",
               values[i].name ? values[i].name : "(null)");
    } else if (j < i) {
      snprintf(message, sizeof message, "create: option %s given twice", d->name);
    } else if (!values[i].value || !apply_option(*out, d, values[i].value)) {
      snprintf(message, sizeof message, "create: option %s=%s is not allowed", d->name,
               values[i].value ? values[i].value : "(null)");
    } else {
      continue;
    }
    free(*out);
    *out = NULL;
    return fail(NULL, status, message);
  }
  return CAE_STATUS_OK;
}
#endif

static void destroy(cae_context ctx) { free(ctx); }

static const char* last_error(cae_context ctx) { return ctx ? ctx->last_error : g_thread_error; }

static cae_status device_info(cae_context ctx, cae_device_info* out) {
  cae_device_info info;
  size_t n;
  if (!out) return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "device_info: out is NULL");
  memset(&info, 0, sizeof info);
  info.struct_size = out->struct_size;
  info.precision = CAE_PRECISION_FP32;
  info.deterministic = ctx ? ctx->exact : 1;
  info.compute_units = ctx ? ctx->units : 1;
  strcpy(info.device_name, "minimal host memory");
  if (ctx && ctx->colour[0]) {
    strcat(info.device_name, " ");
    strcat(info.device_name, ctx->colour);
  }
  n = out->struct_size < sizeof info ? out->struct_size : sizeof info;
  memcpy(out, &info, n);
  return CAE_STATUS_OK;
}

static cae_status tensor_alloc(cae_context ctx, int32_t ndim, const int64_t* dims, cae_tensor* out) {
  int64_t count = 1;
  int32_t i;
  if (ndim < 1 || ndim > CAE_MAX_DIMS || !dims || !out)
    return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "tensor_alloc: bad arguments");
  /* Negative sizes are refused so that no size wraps into a huge malloc (a
     sanitized allocator aborts on those); empty dimensions are accepted, which
     the conformance suite's error checks flag. */
  for (i = 0; i < ndim; ++i) {
    if (dims[i] < 0 || dims[i] > ((int64_t)1 << 40))
      return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "tensor_alloc: bad dimension");
    count *= dims[i];
  }
  if (count > ((int64_t)1 << 40)) return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "tensor_alloc: too large");
  *out = malloc(sizeof(struct cae_tensor_s));
  if (!*out) return fail(ctx, CAE_STATUS_OUT_OF_MEMORY, "tensor_alloc: out of memory");
  (*out)->count = count;
  (*out)->data = malloc((size_t)count * sizeof(float));
  if (count > 0 && !(*out)->data) {
    free(*out);
    *out = NULL;
    return fail(ctx, CAE_STATUS_OUT_OF_MEMORY, "tensor_alloc: out of memory");
  }
  return CAE_STATUS_OK;
}

static void tensor_free(cae_context ctx, cae_tensor t) {
  (void)ctx;
  if (t) free(t->data);
  free(t);
}

static cae_status tensor_upload(cae_context ctx, cae_tensor t, const float* src, size_t count) {
  if (!t || (int64_t)count != t->count) return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "tensor_upload: wrong count");
  memcpy(t->data, src, count * sizeof(float));
  return CAE_STATUS_OK;
}

static cae_status tensor_download(cae_context ctx, cae_tensor t, float* dst, size_t count) {
  if (!t || (int64_t)count != t->count) return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "tensor_download: wrong count");
  memcpy(dst, t->data, count * sizeof(float));
  return CAE_STATUS_OK;
}

static cae_status relu_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
#ifdef STUB_FAILING_OP
  (void)x;
  (void)y;
  return fail(ctx, CAE_STATUS_DEVICE_ERROR, "stub: simulated device failure in relu_forward");
#else
  int64_t i;
  if (!ctx || !x || !y || x->count != y->count) return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "relu_forward: shapes differ");
  for (i = 0; i < x->count; ++i) y->data[i] = x->data[i] > 0.0f ? x->data[i] * ctx->scale : 0.0f;
  return CAE_STATUS_OK;
#endif
}

static cae_status relu_backward(cae_context ctx, cae_tensor y, cae_tensor dy, cae_tensor dx) {
  int64_t i;
  if (!y || !dy || !dx || y->count != dy->count || y->count != dx->count)
    return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "relu_backward: shapes differ");
  for (i = 0; i < y->count; ++i) dx->data[i] = y->data[i] > 0.0f ? dy->data[i] : 0.0f;
  return CAE_STATUS_OK;
}

#if defined(STUB_GREEDY) || defined(STUB_SLOW_CONV)
/* Wrong on purpose: y = b broadcast, the convolution itself left out. */
static cae_status conv2d_forward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b,
                                 cae_tensor y, int32_t fuse_relu) {
  int64_t i, per_channel;
  (void)w;
  (void)fuse_relu;
  if (!x || !b || !y || b->count <= 0) return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "conv2d_forward: bad arguments");
#ifdef STUB_SLOW_CONV
  sleep(STUB_SLOW_CONV);
#endif
  per_channel = y->count / b->count;
  for (i = 0; i < y->count; ++i) y->data[i] = b->data[(i / (per_channel ? per_channel : 1)) % b->count];
  return CAE_STATUS_OK;
}
#endif

static cae_status synchronize(cae_context ctx) {
  (void)ctx;
  return CAE_STATUS_OK;
}

#ifdef STUB_CORE_ONLY
/* Lies beyond this table's struct_size: a host that honours struct_size never calls it. */
static cae_status never_called(cae_context ctx) {
  (void)ctx;
  abort();
}
#endif

#ifdef STUB_ABI_1_1
/* An ABI 1.2 member placed beyond a 1.1 table's struct_size: never called. */
static cae_status join_never_called(cae_context ctx, int32_t rank, int32_t world, const void* id,
                                    size_t bytes, cae_group* out) {
  (void)ctx, (void)rank, (void)world, (void)id, (void)bytes, (void)out;
  abort();
}
#endif

#ifdef STUB_ABI_1_3
/* An ABI 1.4 member placed beyond a 1.3 table's struct_size: never called. */
static int32_t option_count_never_called(void) { abort(); }
/* An ABI 1.5 member placed beyond a 1.3 table's struct_size: never called. */
static cae_status graph_compile_never_called(cae_context ctx, const cae_graph_desc* desc,
                                             cae_graph* out) {
  (void)ctx, (void)desc, (void)out;
  abort();
}
#endif

#ifdef STUB_ABI_1_2
/* An ABI 1.3 member placed beyond a 1.2 table's struct_size: never called. */
static cae_status host_alloc_never_called(cae_context ctx, size_t bytes, void** out) {
  (void)ctx, (void)bytes, (void)out;
  abort();
}
#endif

/* ABI 1.3 host memory. The stub has no device, so "page-locked" memory is
 * ordinary memory; what the tests check is the host's use of the members. A
 * few blocks are remembered so that host_free ignores foreign pointers. */
#define STUB_HOST_BLOCKS 16
static void* g_host_blocks[STUB_HOST_BLOCKS];

static cae_status host_alloc(cae_context ctx, size_t bytes, void** out) {
  int i;
  if (!out) return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "host_alloc: out is NULL");
  *out = NULL;
  if (bytes == 0) return fail(ctx, CAE_STATUS_INVALID_ARGUMENT, "host_alloc: bytes is 0");
  for (i = 0; i < STUB_HOST_BLOCKS && g_host_blocks[i]; ++i) {
  }
  if (i == STUB_HOST_BLOCKS) return fail(ctx, CAE_STATUS_OUT_OF_MEMORY, "host_alloc: stub holds 16 blocks");
  *out = malloc(bytes);
  if (!*out) return fail(ctx, CAE_STATUS_OUT_OF_MEMORY, "host_alloc: out of memory");
  g_host_blocks[i] = *out;
  return CAE_STATUS_OK;
}

static void host_free(cae_context ctx, void* ptr) {
  int i;
  (void)ctx;
  for (i = 0; ptr && i < STUB_HOST_BLOCKS; ++i) {
    if (g_host_blocks[i] == ptr) {
      free(ptr);
      g_host_blocks[i] = NULL;
    }
  }
}

/* How many host_alloc blocks are live (the loader tests check for leaks). */
CAE_BACKEND_EXPORT int stub_live_host_blocks(void) {
  int i, live = 0;
  for (i = 0; i < STUB_HOST_BLOCKS; ++i) live += g_host_blocks[i] != NULL;
  return live;
}

static cae_backend_table make_table(void) {
  cae_backend_table t;
  memset(&t, 0, sizeof t);
  t.struct_size = sizeof t;
  t.abi_major = CAE_ABI_MAJOR;
  t.abi_minor = CAE_ABI_MINOR;
  t.name = STUB_NAME;
  t.version = "0.0.1";
  t.description = "test backend in plain C: host memory, ReLU only";
  t.probe = probe;
  t.create = create;
  t.destroy = destroy;
  t.last_error = last_error;
  t.device_info = device_info;
  t.tensor_alloc = tensor_alloc;
  t.tensor_free = tensor_free;
  t.tensor_upload = tensor_upload;
  t.tensor_download = tensor_download;
  t.relu_forward = relu_forward;
  t.relu_backward = relu_backward;
#if defined(STUB_GREEDY) || defined(STUB_SLOW_CONV)
  t.conv2d_forward = conv2d_forward;
#endif
  t.synchronize = synchronize;
  t.host_alloc = host_alloc;
  t.host_free = host_free;
#ifdef STUB_OPTIONS
  t.option_count = option_count;
  t.option_describe = option_describe;
  t.create_with_options = create_with_options;
#endif
#ifdef STUB_WRONG_MAJOR
  t.abi_major = CAE_ABI_MAJOR + 1;
#endif
#ifdef STUB_CORE_ONLY
  /* A backend built against an older minor: its table ends at the core. */
  t.struct_size = (uint32_t)CAE_BACKEND_TABLE_MIN_SIZE;
  t.abi_minor = 0;
  t.timer_start = never_called;
#endif
#ifdef STUB_ABI_1_0
  /* Built against ABI 1.0: the table ends at memory_stats (no group members). */
  t.struct_size = (uint32_t)CAE_BACKEND_TABLE_SIZE_1_0;
  t.abi_minor = 0;
#endif
#ifdef STUB_ABI_1_1
  /* Built against ABI 1.1: the table ends at group_destroy (no process groups). */
  t.struct_size = (uint32_t)CAE_BACKEND_TABLE_SIZE_1_1;
  t.abi_minor = 1;
  t.group_join = join_never_called;
#endif
#ifdef STUB_ABI_1_2
  /* Built against ABI 1.2: the table ends at group_join (no host memory). */
  t.struct_size = (uint32_t)CAE_BACKEND_TABLE_SIZE_1_2;
  t.abi_minor = 2;
  t.host_alloc = host_alloc_never_called;
#endif
#ifdef STUB_ABI_1_3
  /* Built against ABI 1.3: the table ends at host_free (no options). */
  t.struct_size = (uint32_t)CAE_BACKEND_TABLE_SIZE_1_3;
  t.abi_minor = 3;
  t.option_count = option_count_never_called;
  t.graph_compile = graph_compile_never_called;
#endif
#ifdef STUB_TOO_SMALL
  t.struct_size = (uint32_t)offsetof(cae_backend_table, conv2d_forward);
#endif
  return t;
}

#ifndef STUB_NO_ENTRY
CAE_BACKEND_EXPORT const cae_backend_table* cae_backend_get_table(uint32_t host_abi_major) {
  static cae_backend_table table;
  static int ready = 0;
#ifndef STUB_WRONG_MAJOR
  if (host_abi_major != CAE_ABI_MAJOR) return NULL;
#else
  (void)host_abi_major;
#endif
  if (!ready) {
    table = make_table();
    ready = 1;
  }
  return &table;
}
#else
/* Exports something, but not the entry point. */
CAE_BACKEND_EXPORT int not_a_cae_backend(void) { return (int)sizeof(make_table()); }
#endif
