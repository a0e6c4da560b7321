// The host's C++ view of a backend: RAII contexts and tensors whose methods
// turn cae_status into cae::BackendError carrying the plugin's message.
// Nothing C++ crosses the ABI: the wrapper calls the C table and translates.
#pragma once

#include <cae/backend.h>

#include <cstdint>
#include <string>
#include <vector>

#include "backend_error.hpp"
#include "declared_options.hpp"

namespace cae {

class Context;

// A device tensor owned by one context. Move-only; freed on destruction.
class Tensor {
 public:
  Tensor() = default;
  ~Tensor();
  Tensor(Tensor&& other) noexcept;
  Tensor& operator=(Tensor&& other) noexcept;
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;

  const std::vector<int64_t>& dims() const { return dims_; }
  int64_t count() const;
  cae_tensor handle() const { return handle_; }
  explicit operator bool() const { return handle_ != nullptr; }

  void upload(const float* src, size_t count);
  void upload(const std::vector<float>& src) { upload(src.data(), src.size()); }
  void download(float* dst, size_t count) const;
  std::vector<float> download() const;

 private:
  friend class Context;
  Tensor(Context* owner, cae_tensor handle, std::vector<int64_t> dims)
      : owner_(owner), handle_(handle), dims_(std::move(dims)) {}
  void reset() noexcept;
  Context* owner_ = nullptr;
  cae_tensor handle_ = nullptr;
  std::vector<int64_t> dims_;
};

struct DeviceInfo {
  std::string name;
  uint64_t memory_total_bytes = 0;
  uint64_t memory_free_bytes = 0;
  cae_precision precision = CAE_PRECISION_FP32;
  bool deterministic = false;
  int32_t compute_units = 0;
};

const char* precision_name(cae_precision precision);

// "<call>: <message>" (the status's name when the message is empty), or the
// message as it is when it already begins with "<call>:".
std::string with_call(const char* call, const char* message, cae_status status);

// One backend context. Not copyable; movable. Use from one thread at a time.
class Context {
 public:
  // Throws BackendError (status + plugin message) when create fails. With
  // `options` (checked by check_backend_options) the backend must carry the
  // ABI 1.4 option members: a backend without them is refused, never given
  // a context that silently ignores the choice.
  Context(const cae_backend_table& table, int32_t device_index = 0, int32_t thread_count = 0,
          BackendOptionValues options = {});
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const cae_backend_table& table() const { return *table_; }
  // What create was given: another context "like this one" (extraction_streams.hpp).
  int32_t device_index() const { return device_index_; }
  int32_t thread_count() const { return thread_count_; }
  const BackendOptionValues& options() const { return options_; }
  std::string backend_name() const { return table_->name ? table_->name : "?"; }
  DeviceInfo device_info() const;

  Tensor alloc(const std::vector<int64_t>& dims);

  void conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& b, Tensor& y, bool relu);
  // dx may be a null Tensor (not requested).
  void conv2d_backward(const Tensor& x, const Tensor& w, const Tensor& dy, Tensor* dx, Tensor& dw,
                       Tensor& db);
  void relu_forward(const Tensor& x, Tensor& y);
  void relu_backward(const Tensor& y, const Tensor& dy, Tensor& dx);
  void maxpool2x2_forward(const Tensor& x, Tensor& y);
  void maxpool2x2_backward(const Tensor& x, const Tensor& dy, Tensor& dx);
  void upsample2x_forward(const Tensor& x, Tensor& y);
  void upsample2x_backward(const Tensor& dy, Tensor& dx);
  // grad may be nullptr.
  void mse_loss(const Tensor& pred, const Tensor& target, Tensor& loss, Tensor* grad);
  // velocity may be nullptr when momentum == 0.
  void sgd_step(Tensor& param, const Tensor& grad, Tensor* velocity, float lr, float momentum,
                float weight_decay);
  void adam_step(Tensor& param, const Tensor& grad, Tensor& m, Tensor& v,
                 const cae_adam_params& params);
  void kernel_matrix(const Tensor& x, const Tensor& y, Tensor& k, cae_kernel_kind kind,
                     float gamma);
  void synchronize();

  // Optional members: has_*() tells whether the backend provides them.
  bool has_timer() const;
  void timer_start();
  double timer_stop_ms();
  bool has_memory_stats() const;
  void memory_stats(uint64_t& in_use, uint64_t& peak) const;
  // ABI 1.3: page-locked host memory (HostBuffer uses these; host_free takes
  // only what host_alloc returned and never throws).
  bool has_host_memory() const;
  void* host_alloc(size_t bytes);
  void host_free(void* ptr) noexcept;
  // ABI 1.8: the kernel SVM's dual problems solved by the backend
  // (cae_svm_dual_problem; their struct_size is set here). Synchronous.
  bool has_svm_dual_solve() const;
  // ABI 1.9: a problem's kernel_ba may be NULL (the backend transposes kernel_ab).
  bool svm_dual_transposes() const;
  void svm_dual_solve(std::vector<cae_svm_dual_problem>& problems);
  // ABI 1.10: the RBF kernel of x and y from the LINEAR kernel_matrix of the
  // same tensors (`linear`; k may be it), as kernel_matrix would write it.
  bool has_kernel_rbf_from_linear() const;
  void kernel_rbf_from_linear(const Tensor& x, const Tensor& y, const Tensor& linear, Tensor& k,
                              float gamma);
  // ABI 1.11: the linear classifier's loss on a group of rows: residuals
  // [k,n] and the blocks' sums [blocks,k+1,2] from scores [n,k], bias [k] and
  // targets [n] (cae_linear_loss_kind; api/cae/backend.h). A backend whose
  // option turns it off throws BackendError with CAE_STATUS_UNSUPPORTED.
  bool has_linear_loss() const;
  void linear_loss(const Tensor& scores, const Tensor& bias, const Tensor& targets,
                   cae_linear_loss_kind kind, float scale, Tensor& residuals, Tensor& sums);
  // ABI 1.11: y [c,r] = x [r,c] transposed, bit for bit. UNSUPPORTED (as
  // BackendError) for a matrix larger than the backend transposes.
  bool has_transpose() const;
  void transpose(const Tensor& x, Tensor& y);
  // ABI 1.12: y = x + sigma * cae_normal_draw(seed, first_index + i) for
  // every value i of x (y may be x).
  bool has_add_normal_noise() const;
  void add_normal_noise(const Tensor& x, Tensor& y, float sigma, uint64_t seed,
                        uint64_t first_index);

  // ABI 1.13: y = code(x) + bias at each pixel, then max(0, .) with relu.
  bool has_channel_code() const;
  void channel_code(const Tensor& x, Tensor& y, cae_channel_code code, float bias, bool relu);

  cae_context handle() const { return ctx_; }

  // Throws BackendError("<backend>: <call>: <message>") unless status is OK.
  void check(cae_status status, const char* call) const;

 private:
  friend class Tensor;
  const cae_backend_table* table_;
  int32_t device_index_ = 0;
  int32_t thread_count_ = 0;
  BackendOptionValues options_;
  cae_context ctx_ = nullptr;
};

}  // namespace cae
