#include "cuda_support.hpp"

#include <string>

namespace cae_plugin {
namespace cuda {

void check(cudaError_t err, const char* call, const char* file, int line) {
  if (err == cudaSuccess) return;
  // Clear the sticky "last error" for non-fatal errors so later calls start clean.
  (void)cudaGetLastError();
  std::string where = std::string(file);
  auto slash = where.find_last_of('/');
  if (slash != std::string::npos) where = where.substr(slash + 1);
  std::string message = std::string(call) + " failed: " + cudaGetErrorName(err) + ": " +
                        cudaGetErrorString(err) + " (" + where + ":" + std::to_string(line) + ")";
  cae_status status = CAE_STATUS_DEVICE_ERROR;
  if (err == cudaErrorMemoryAllocation) status = CAE_STATUS_OUT_OF_MEMORY;
  // No driver or no device: the backend cannot run here at all.
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver)
    status = CAE_STATUS_UNAVAILABLE;
  fail(status, message);
}

namespace {

// What a user needs to know first (is there a driver? a GPU?), then CUDA's own
// words for whoever debugs it.
std::string unavailable_reason(cudaError_t err) {
  std::string first;
  switch (err) {
    case cudaErrorInsufficientDriver:
      first = "no NVIDIA driver found, or one older than this CUDA runtime needs";
      break;
    case cudaErrorNoDevice:
      first = "no CUDA GPU found";
      break;
    case cudaErrorNotPermitted:
    case cudaErrorDevicesUnavailable:
      first = "the CUDA GPUs here may not be used by this process";
      break;
    default:
      first = "CUDA cannot start here";
  }
  return first + " (" + cudaGetErrorName(err) + ": " + cudaGetErrorString(err) + ")";
}

}  // namespace

void probe(cae_probe_result* out, int32_t priority) {
  require(out != nullptr, "probe: result pointer is NULL");
  cae_probe_result result{};
  result.struct_size = sizeof result;
  result.priority = priority;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    result.available = 0;
    copy_string(result.reason, unavailable_reason(err));
  } else if (count == 0) {
    result.available = 0;
    copy_string(result.reason, "no CUDA device found");
  } else {
    result.available = 1;
    result.device_count = count;
  }
  write_out_struct(out, result);
}

void require_capability(int device, int major, int minor, const char* built_for) {
  int device_major = 0, device_minor = 0;
  CAE_CUDA_CHECK(cudaDeviceGetAttribute(&device_major, cudaDevAttrComputeCapabilityMajor, device));
  CAE_CUDA_CHECK(cudaDeviceGetAttribute(&device_minor, cudaDevAttrComputeCapabilityMinor, device));
  if (device_major != major || device_minor != minor) {
    fail(CAE_STATUS_UNSUPPORTED, std::string("create: built for ") + built_for +
                                     " (compute capability " + std::to_string(major) + "." +
                                     std::to_string(minor) + "); device " + std::to_string(device) +
                                     " is " + std::to_string(device_major) + "." +
                                     std::to_string(device_minor));
  }
}

void probe_capability(cae_probe_result* out, int32_t priority, int major, int minor,
                      const char* built_for) {
  require(out != nullptr, "probe: result pointer is NULL");
  cae_probe_result result{};
  result.struct_size = sizeof result;
  probe(&result, priority);
  if (!result.available) return write_out_struct(out, result);
  std::string found;
  for (int device = 0; device < result.device_count; ++device) {
    int device_major = 0, device_minor = 0;
    if (cudaDeviceGetAttribute(&device_major, cudaDevAttrComputeCapabilityMajor, device) !=
            cudaSuccess ||
        cudaDeviceGetAttribute(&device_minor, cudaDevAttrComputeCapabilityMinor, device) !=
            cudaSuccess) {
      (void)cudaGetLastError();
      continue;
    }
    if (device_major == major && device_minor == minor) return write_out_struct(out, result);
    found += (found.empty() ? "" : ", ") + std::to_string(device_major) + "." +
             std::to_string(device_minor);
  }
  result.available = 0;
  result.device_count = 0;
  copy_string(result.reason, std::string("built for ") + built_for + " (compute capability " +
                                 std::to_string(major) + "." + std::to_string(minor) +
                                 "); this machine's GPUs are " +
                                 (found.empty() ? "unknown" : found));
  write_out_struct(out, result);
}

float* device_alloc_floats(size_t count, MemoryTracker& tracker, const char* what) {
  void* ptr = nullptr;
  size_t bytes = count * sizeof(float);
  cudaError_t err = cudaMalloc(&ptr, bytes);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    fail(err == cudaErrorMemoryAllocation ? CAE_STATUS_OUT_OF_MEMORY : CAE_STATUS_DEVICE_ERROR,
         std::string("cudaMalloc of ") + format_bytes(bytes) + " for " + what +
             " failed: " + cudaGetErrorString(err));
  }
  tracker.in_use += bytes;
  if (tracker.in_use > tracker.peak) tracker.peak = tracker.in_use;
  return static_cast<float*>(ptr);
}

void device_free(void* ptr, size_t bytes, MemoryTracker& tracker) noexcept {
  if (!ptr) return;
  cudaFree(ptr);
  tracker.in_use -= bytes;
}

CudaContextBase::CudaContextBase(const cae_create_options* options) {
  try {
    initialize(options);
  } catch (...) {
    release();  // a throwing constructor runs no destructor: free what was made
    throw;
  }
}

void CudaContextBase::initialize(const cae_create_options* options) {
  require(options != nullptr, "create: options is NULL");
  device = options->device_index;
  int count = 0;
  CAE_CUDA_CHECK(cudaGetDeviceCount(&count));
  require(device >= 0 && device < count, "create: device index " + std::to_string(device) +
                                             " out of range (" + std::to_string(count) +
                                             " CUDA devices)");
  CAE_CUDA_CHECK(cudaSetDevice(device));
  CAE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CAE_CUDA_CHECK(cudaEventCreate(&timer_begin));
  CAE_CUDA_CHECK(cudaEventCreate(&timer_end));
}

CudaContextBase::~CudaContextBase() { release(); }

void CudaContextBase::release() noexcept {
  cudaSetDevice(device);
  if (stream) cudaStreamSynchronize(stream);
  if (timer_begin) cudaEventDestroy(timer_begin);
  if (timer_end) cudaEventDestroy(timer_end);
  if (stream) cudaStreamDestroy(stream);
  timer_begin = timer_end = nullptr;
  stream = nullptr;
}

void CudaContextBase::activate() const {
  // Every entry point comes here; only a thread on another device switches
  // (a stream capture in progress then sees no device call at all).
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && current == device) return;
  CAE_CUDA_CHECK(cudaSetDevice(device));
}

void CudaContextBase::fill_device_info(cae_device_info* out, cae_precision precision,
                                       bool deterministic) const {
  activate();
  cudaDeviceProp prop{};
  CAE_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  size_t free_bytes = 0, total_bytes = 0;
  CAE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  cae_device_info info{};
  info.struct_size = sizeof info;
  info.precision = precision;
  info.deterministic = deterministic ? 1 : 0;
  info.compute_units = prop.multiProcessorCount;
  info.memory_total_bytes = total_bytes;
  info.memory_free_bytes = free_bytes;
  copy_string(info.device_name, prop.name);
  write_out_struct(out, info);
}

void CudaContextBase::synchronize() const {
  activate();
  CAE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void CudaContextBase::start_timer() {
  activate();
  CAE_CUDA_CHECK(cudaEventRecord(timer_begin, stream));
  timer_running = true;
}

double CudaContextBase::stop_timer() {
  require(timer_running, "timer_stop: timer_start was not called");
  activate();
  CAE_CUDA_CHECK(cudaEventRecord(timer_end, stream));
  CAE_CUDA_CHECK(cudaEventSynchronize(timer_end));
  float ms = 0.0f;
  CAE_CUDA_CHECK(cudaEventElapsedTime(&ms, timer_begin, timer_end));
  timer_running = false;
  return ms;
}

void CudaContextBase::memory_stats(uint64_t* in_use, uint64_t* peak) const {
  require(in_use && peak, "memory_stats: NULL output pointer");
  *in_use = memory.in_use;
  *peak = memory.peak;
}

unsigned grid_for(int64_t n, unsigned threads) {
  int64_t blocks = (n + threads - 1) / threads;
  if (blocks < 1) blocks = 1;
  if (blocks > 65535LL * 32) blocks = 65535LL * 32;  // grid-stride loops cover the rest
  return static_cast<unsigned>(blocks);
}

}  // namespace cuda
}  // namespace cae_plugin
