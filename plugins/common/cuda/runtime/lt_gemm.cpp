#include "lt_gemm.hpp"

#include <string>

#include "library_writes.hpp"
#include "plugin_support.hpp"

namespace cae_cuda {

namespace {

void check_lt(cublasStatus_t status, const char* call, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  cae_plugin::fail(CAE_STATUS_DEVICE_ERROR, std::string(call) + " (" + what +
                                                ") failed: " + cublasLtGetStatusName(status) +
                                                ": " + cublasLtGetStatusString(status));
}

#define CAE_LT_CHECK(call, what) check_lt((call), #call, (what))

// The largest power of two (at most 256) dividing the byte address of every
// batch's matrix: cuBLASLt picks kernels by the alignment we promise.
int64_t alignment_of(const void* pointer, int64_t batch_stride_floats) {
  uint64_t bits = reinterpret_cast<uintptr_t>(pointer) | 256u;
  if (batch_stride_floats != 0) bits |= static_cast<uint64_t>(batch_stride_floats) * sizeof(float);
  return static_cast<int64_t>(bits & (~bits + 1));
}

cublasLtEpilogue_t lt_epilogue(Epilogue e) {
  switch (e) {
    case Epilogue::bias:
      return CUBLASLT_EPILOGUE_BIAS;
    case Epilogue::bias_relu:
      return CUBLASLT_EPILOGUE_RELU_BIAS;
    case Epilogue::bias_grad:
      return CUBLASLT_EPILOGUE_BGRADB;
    case Epilogue::none:
      break;
  }
  return CUBLASLT_EPILOGUE_DEFAULT;
}

const void* bias_pointer(const GemmCall& call) {
  return call.epilogue == Epilogue::bias_grad ? static_cast<const void*>(call.bias_grad)
                                              : static_cast<const void*>(call.bias);
}

}  // namespace

struct LtGemm::Plan {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, d = nullptr;
  cublasLtMatmulAlgo_t algo{};
  bool usable = false;
  bool exact = false;

  ~Plan() {
    if (a) cublasLtMatrixLayoutDestroy(a);
    if (b) cublasLtMatrixLayoutDestroy(b);
    if (d) cublasLtMatrixLayoutDestroy(d);
    if (desc) cublasLtMatmulDescDestroy(desc);
  }
};

LtGemm::LtGemm(cudaStream_t stream, void* workspace, size_t workspace_bytes)
    : stream_(stream), workspace_(workspace), workspace_bytes_(workspace_bytes) {
  CAE_LT_CHECK(cublasLtCreate(&handle_), "handle");
}

LtGemm::~LtGemm() {
  plans_.clear();  // descriptors before the handle
  if (handle_) cublasLtDestroy(handle_);
}

LtGemm::Plan* LtGemm::plan_for(const GemmCall& c, bool exact, const char* what) {
  const bool has_bias = c.epilogue != Epilogue::none;
  const Key key = {c.transpose_a,
                   c.transpose_b,
                   c.m,
                   c.n,
                   c.k,
                   c.lda,
                   c.batch_stride_a,
                   c.ldb,
                   c.batch_stride_b,
                   c.ldd,
                   c.batch_stride_d,
                   c.batch,
                   static_cast<int64_t>(c.epilogue),
                   exact,
                   alignment_of(c.a, c.batch > 1 ? c.batch_stride_a : 0),
                   alignment_of(c.b, c.batch > 1 ? c.batch_stride_b : 0),
                   alignment_of(c.d, c.batch > 1 ? c.batch_stride_d : 0),
                   has_bias ? alignment_of(bias_pointer(c), c.bias_batch_stride) : 0,
                   c.bias_batch_stride,
                   0,
                   0,
                   0};
  auto found = plans_.find(key);
  if (found != plans_.end()) return found->second.get();

  auto plan = std::make_unique<Plan>();
  plan->exact = exact;
  CAE_LT_CHECK(
      cublasLtMatmulDescCreate(
          &plan->desc, exact ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F),
      what);
  const cublasOperation_t op_a = c.transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_b = c.transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  CAE_LT_CHECK(
      cublasLtMatmulDescSetAttribute(plan->desc, CUBLASLT_MATMUL_DESC_TRANSA, &op_a, sizeof op_a),
      what);
  CAE_LT_CHECK(
      cublasLtMatmulDescSetAttribute(plan->desc, CUBLASLT_MATMUL_DESC_TRANSB, &op_b, sizeof op_b),
      what);
  const cublasLtEpilogue_t epilogue = lt_epilogue(c.epilogue);
  CAE_LT_CHECK(cublasLtMatmulDescSetAttribute(plan->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
                                              sizeof epilogue),
               what);
  if (has_bias) {
    const void* bias = bias_pointer(c);
    CAE_LT_CHECK(cublasLtMatmulDescSetAttribute(plan->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                                                &bias, sizeof bias),
                 what);
    if (c.batch > 1) {
      const int64_t stride = c.bias_batch_stride;
      CAE_LT_CHECK(cublasLtMatmulDescSetAttribute(
                       plan->desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, &stride, sizeof stride),
                   what);
    }
  }
  auto layout = [&](cublasLtMatrixLayout_t* out, int64_t rows, int64_t cols, int64_t ld,
                    int64_t stride) {
    CAE_LT_CHECK(cublasLtMatrixLayoutCreate(out, CUDA_R_32F, static_cast<uint64_t>(rows),
                                            static_cast<uint64_t>(cols), ld),
                 what);
    if (c.batch > 1) {
      const int32_t count = c.batch;
      CAE_LT_CHECK(cublasLtMatrixLayoutSetAttribute(*out, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                                    &count, sizeof count),
                   what);
      CAE_LT_CHECK(cublasLtMatrixLayoutSetAttribute(
                       *out, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride),
                   what);
    }
  };
  layout(&plan->a, c.transpose_a ? c.k : c.m, c.transpose_a ? c.m : c.k, c.lda, c.batch_stride_a);
  layout(&plan->b, c.transpose_b ? c.n : c.k, c.transpose_b ? c.k : c.n, c.ldb, c.batch_stride_b);
  layout(&plan->d, c.m, c.n, c.ldd, c.batch_stride_d);

  cublasLtMatmulPreference_t preference = nullptr;
  CAE_LT_CHECK(cublasLtMatmulPreferenceCreate(&preference), what);
  cublasLtMatmulHeuristicResult_t result{};
  int returned = 0;
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  {
    const uint64_t workspace = workspace_bytes_;
    const uint32_t align_a = static_cast<uint32_t>(key[14]),
                   align_b = static_cast<uint32_t>(key[15]),
                   align_d = static_cast<uint32_t>(key[16]);
    cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                         &workspace, sizeof workspace);
    cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
                                         &align_a, sizeof align_a);
    cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                                         &align_b, sizeof align_b);
    cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
                                         &align_d, sizeof align_d);
    cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES,
                                         &align_d, sizeof align_d);
    status = cublasLtMatmulAlgoGetHeuristic(handle_, plan->desc, plan->a, plan->b, plan->d, plan->d,
                                            preference, 1, &result, &returned);
  }
  cublasLtMatmulPreferenceDestroy(preference);
  plan->usable =
      status == CUBLAS_STATUS_SUCCESS && returned > 0 && result.state == CUBLAS_STATUS_SUCCESS;
  if (plan->usable) plan->algo = result.algo;
  Plan* raw = plan.get();
  plans_.emplace(key, std::move(plan));
  return raw;
}

bool LtGemm::run(const GemmCall& call, const char* what) {
  if (call.m < 1 || call.n < 1 || call.k < 1 || call.batch < 1 || !call.a || !call.b || !call.d) {
    cae_plugin::fail(CAE_STATUS_INTERNAL,
                     std::string(what) + ": inconsistent GEMM m=" + std::to_string(call.m) +
                         " n=" + std::to_string(call.n) + " k=" + std::to_string(call.k));
  }
  Plan* plan = call.exact_fp32 ? nullptr : plan_for(call, false, what);
  if (plan == nullptr || !plan->usable) plan = plan_for(call, true, what);
  if (!plan->usable) return false;
  if (execute(*plan, call, what)) return true;
  // The heuristic offered an algorithm that then refused the call: never
  // offer it again, and try FP32 before giving up.
  plan->usable = false;
  if (plan->exact) return false;
  plan = plan_for(call, true, what);
  return plan->usable && execute(*plan, call, what);
}

bool LtGemm::execute(Plan& plan, const GemmCall& call, const char* what) {
  if (call.epilogue != Epilogue::none) {
    const void* bias = bias_pointer(call);
    CAE_LT_CHECK(cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                                                sizeof bias),
                 what);
  }
  const float one = 1.0f, zero = 0.0f;
  const cublasStatus_t status =
      cublasLtMatmul(handle_, plan.desc, &one, call.a, plan.a, call.b, plan.b, &zero, call.d,
                     plan.d, call.d, plan.d, &plan.algo, workspace_, workspace_bytes_, stream_);
  if (status == CUBLAS_STATUS_NOT_SUPPORTED || status == CUBLAS_STATUS_INVALID_VALUE) {
    return false;
  }
  check_lt(status, "cublasLtMatmul", what);
  mark_gemm_output_written(stream_, call);
  return true;
}

}  // namespace cae_cuda
