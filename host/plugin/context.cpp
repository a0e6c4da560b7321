#include "context.hpp"

#include <cstring>
#include <utility>

namespace cae {

const char* precision_name(cae_precision precision) {
  switch (precision) {
    case CAE_PRECISION_FP32: return "fp32";
    case CAE_PRECISION_TF32: return "tf32";
    case CAE_PRECISION_BF16: return "bf16";
    case CAE_PRECISION_FP16: return "fp16";
  }
  return "unknown";
}

// ---- Tensor ---------------------------------------------------------------

Tensor::~Tensor() { reset(); }

Tensor::Tensor(Tensor&& other) noexcept
    : owner_(other.owner_), handle_(other.handle_), dims_(std::move(other.dims_)) {
  other.owner_ = nullptr;
  other.handle_ = nullptr;
}

Tensor& Tensor::operator=(Tensor&& other) noexcept {
  if (this != &other) {
    reset();
    owner_ = other.owner_;
    handle_ = other.handle_;
    dims_ = std::move(other.dims_);
    other.owner_ = nullptr;
    other.handle_ = nullptr;
  }
  return *this;
}

void Tensor::reset() noexcept {
  if (owner_ && handle_) owner_->table_->tensor_free(owner_->ctx_, handle_);
  owner_ = nullptr;
  handle_ = nullptr;
}

int64_t Tensor::count() const {
  int64_t n = dims_.empty() ? 0 : 1;
  for (int64_t d : dims_) n *= d;
  return n;
}

void Tensor::upload(const float* src, size_t count) {
  if (!owner_) throw std::logic_error("upload to an empty tensor");
  owner_->check(owner_->table_->tensor_upload(owner_->ctx_, handle_, src, count), "tensor_upload");
}

void Tensor::download(float* dst, size_t count) const {
  if (!owner_) throw std::logic_error("download from an empty tensor");
  owner_->check(owner_->table_->tensor_download(owner_->ctx_, handle_, dst, count),
                "tensor_download");
}

std::vector<float> Tensor::download() const {
  std::vector<float> host(static_cast<size_t>(count()));
  download(host.data(), host.size());
  return host;
}

// ---- Context ----------------------------------------------------------------

namespace {
cae_tensor handle_or_null(const Tensor* t) { return t && *t ? t->handle() : nullptr; }
}  // namespace

// docs/writing-a-backend.md asks a backend to begin its messages with the
// member's name ("conv2d_forward: w [4,2,3,3] ..."), so that last_error reads
// well on its own. The host adds the name only to messages that lack it, and
// never says it twice.
std::string with_call(const char* call, const char* message, cae_status status) {
  const std::string text = message && *message ? message : status_name(status);
  const std::string prefix = std::string(call) + ":";
  return text.compare(0, prefix.size(), prefix) == 0 ? text : prefix + " " + text;
}

Context::Context(const cae_backend_table& table, int32_t device_index, int32_t thread_count,
                 BackendOptionValues options)
    : table_(&table),
      device_index_(device_index),
      thread_count_(thread_count),
      options_(std::move(options)) {
  cae_create_options create_options{};
  create_options.struct_size = sizeof create_options;
  create_options.device_index = device_index;
  create_options.thread_count = thread_count;
  cae_status status = CAE_STATUS_OK;
  if (has_option_members(table)) {
    std::vector<cae_option_value> values;
    for (const auto& [name, value] : options_) values.push_back({name.c_str(), value.c_str()});
    status = table_->create_with_options(&create_options, values.data(),
                                         static_cast<int32_t>(values.size()), &ctx_);
  } else if (!options_.empty()) {
    throw BackendError(CAE_STATUS_UNSUPPORTED,
                       backend_name() + ": create: this backend declares no options (ABI " +
                           std::to_string(table.abi_major) + "." +
                           std::to_string(table.abi_minor) + "), so " +
                           options_text(options_) + " cannot be set");
  } else {
    status = table_->create(&create_options, &ctx_);
  }
  if (status != CAE_STATUS_OK || !ctx_) {
    const cae_status reported = status == CAE_STATUS_OK ? CAE_STATUS_INTERNAL : status;
    throw BackendError(reported,
                       backend_name() + ": " +
                           with_call("create", table_->last_error(nullptr), reported));
  }
}

Context::~Context() {
  if (ctx_) table_->destroy(ctx_);
}

void Context::check(cae_status status, const char* call) const {
  if (status == CAE_STATUS_OK) return;
  const char* message = table_->last_error(ctx_);
  throw BackendError(status, backend_name() + ": " + with_call(call, message, status));
}

// Ops a backend leaves NULL are "unsupported": say which, never call them.
#define CAE_REQUIRE_MEMBER(member)                                                   \
  do {                                                                               \
    if (!CAE_TABLE_HAS(table_, member))                                              \
      throw BackendError(CAE_STATUS_UNSUPPORTED, backend_name() + ": " #member       \
                                                     " is not supported by this backend"); \
  } while (0)

DeviceInfo Context::device_info() const {
  cae_device_info raw{};
  raw.struct_size = sizeof raw;
  check(table_->device_info(ctx_, &raw), "device_info");
  raw.device_name[sizeof raw.device_name - 1] = '\0';
  DeviceInfo info;
  info.name = raw.device_name;
  info.memory_total_bytes = raw.memory_total_bytes;
  info.memory_free_bytes = raw.memory_free_bytes;
  info.precision = static_cast<cae_precision>(raw.precision);
  info.deterministic = raw.deterministic != 0;
  info.compute_units = raw.compute_units;
  return info;
}

Tensor Context::alloc(const std::vector<int64_t>& dims) {
  cae_tensor handle = nullptr;
  check(table_->tensor_alloc(ctx_, static_cast<int32_t>(dims.size()), dims.data(), &handle),
        "tensor_alloc");
  return Tensor(this, handle, dims);
}

void Context::conv2d_forward(const Tensor& x, const Tensor& w, const Tensor& b, Tensor& y,
                             bool relu) {
  CAE_REQUIRE_MEMBER(conv2d_forward);
  check(table_->conv2d_forward(ctx_, x.handle(), w.handle(), b.handle(), y.handle(), relu ? 1 : 0),
        "conv2d_forward");
}

void Context::conv2d_backward(const Tensor& x, const Tensor& w, const Tensor& dy, Tensor* dx,
                              Tensor& dw, Tensor& db) {
  CAE_REQUIRE_MEMBER(conv2d_backward);
  check(table_->conv2d_backward(ctx_, x.handle(), w.handle(), dy.handle(), handle_or_null(dx),
                                dw.handle(), db.handle()),
        "conv2d_backward");
}

void Context::relu_forward(const Tensor& x, Tensor& y) {
  CAE_REQUIRE_MEMBER(relu_forward);
  check(table_->relu_forward(ctx_, x.handle(), y.handle()), "relu_forward");
}

void Context::relu_backward(const Tensor& y, const Tensor& dy, Tensor& dx) {
  CAE_REQUIRE_MEMBER(relu_backward);
  check(table_->relu_backward(ctx_, y.handle(), dy.handle(), dx.handle()), "relu_backward");
}

void Context::maxpool2x2_forward(const Tensor& x, Tensor& y) {
  CAE_REQUIRE_MEMBER(maxpool2x2_forward);
  check(table_->maxpool2x2_forward(ctx_, x.handle(), y.handle()), "maxpool2x2_forward");
}

void Context::maxpool2x2_backward(const Tensor& x, const Tensor& dy, Tensor& dx) {
  CAE_REQUIRE_MEMBER(maxpool2x2_backward);
  check(table_->maxpool2x2_backward(ctx_, x.handle(), dy.handle(), dx.handle()),
        "maxpool2x2_backward");
}

void Context::upsample2x_forward(const Tensor& x, Tensor& y) {
  CAE_REQUIRE_MEMBER(upsample2x_forward);
  check(table_->upsample2x_forward(ctx_, x.handle(), y.handle()), "upsample2x_forward");
}

void Context::upsample2x_backward(const Tensor& dy, Tensor& dx) {
  CAE_REQUIRE_MEMBER(upsample2x_backward);
  check(table_->upsample2x_backward(ctx_, dy.handle(), dx.handle()), "upsample2x_backward");
}

void Context::mse_loss(const Tensor& pred, const Tensor& target, Tensor& loss, Tensor* grad) {
  CAE_REQUIRE_MEMBER(mse_loss);
  check(table_->mse_loss(ctx_, pred.handle(), target.handle(), loss.handle(), handle_or_null(grad)),
        "mse_loss");
}

void Context::sgd_step(Tensor& param, const Tensor& grad, Tensor* velocity, float lr,
                       float momentum, float weight_decay) {
  CAE_REQUIRE_MEMBER(sgd_step);
  check(table_->sgd_step(ctx_, param.handle(), grad.handle(), handle_or_null(velocity), lr,
                         momentum, weight_decay),
        "sgd_step");
}

void Context::adam_step(Tensor& param, const Tensor& grad, Tensor& m, Tensor& v,
                        const cae_adam_params& params) {
  CAE_REQUIRE_MEMBER(adam_step);
  check(table_->adam_step(ctx_, param.handle(), grad.handle(), m.handle(), v.handle(), &params),
        "adam_step");
}

void Context::kernel_matrix(const Tensor& x, const Tensor& y, Tensor& k, cae_kernel_kind kind,
                            float gamma) {
  CAE_REQUIRE_MEMBER(kernel_matrix);
  check(table_->kernel_matrix(ctx_, x.handle(), y.handle(), k.handle(), kind, gamma),
        "kernel_matrix");
}

bool Context::has_kernel_rbf_from_linear() const {
  return CAE_TABLE_HAS(table_, kernel_rbf_from_linear);
}

void Context::kernel_rbf_from_linear(const Tensor& x, const Tensor& y, const Tensor& linear,
                                     Tensor& k, float gamma) {
  CAE_REQUIRE_MEMBER(kernel_rbf_from_linear);
  check(table_->kernel_rbf_from_linear(ctx_, x.handle(), y.handle(), linear.handle(), k.handle(),
                                       gamma),
        "kernel_rbf_from_linear");
}

bool Context::has_linear_loss() const { return CAE_TABLE_HAS(table_, linear_loss); }

void Context::linear_loss(const Tensor& scores, const Tensor& bias, const Tensor& targets,
                          cae_linear_loss_kind kind, float scale, Tensor& residuals, Tensor& sums) {
  CAE_REQUIRE_MEMBER(linear_loss);
  check(table_->linear_loss(ctx_, scores.handle(), bias.handle(), targets.handle(), kind, scale,
                            residuals.handle(), sums.handle()),
        "linear_loss");
}

bool Context::has_transpose() const { return CAE_TABLE_HAS(table_, transpose); }

void Context::transpose(const Tensor& x, Tensor& y) {
  CAE_REQUIRE_MEMBER(transpose);
  check(table_->transpose(ctx_, x.handle(), y.handle()), "transpose");
}

bool Context::has_add_normal_noise() const { return CAE_TABLE_HAS(table_, add_normal_noise); }

void Context::add_normal_noise(const Tensor& x, Tensor& y, float sigma, uint64_t seed,
                               uint64_t first_index) {
  CAE_REQUIRE_MEMBER(add_normal_noise);
  check(table_->add_normal_noise(ctx_, x.handle(), y.handle(), sigma, seed, first_index),
        "add_normal_noise");
}

bool Context::has_channel_code() const { return CAE_TABLE_HAS(table_, channel_code); }

void Context::channel_code(const Tensor& x, Tensor& y, cae_channel_code code, float bias,
                           bool relu) {
  CAE_REQUIRE_MEMBER(channel_code);
  check(table_->channel_code(ctx_, x.handle(), y.handle(), code, bias, relu ? 1 : 0),
        "channel_code");
}

void Context::synchronize() { check(table_->synchronize(ctx_), "synchronize"); }

bool Context::has_timer() const {
  return CAE_TABLE_HAS(table_, timer_start) && CAE_TABLE_HAS(table_, timer_stop);
}

void Context::timer_start() {
  CAE_REQUIRE_MEMBER(timer_start);
  check(table_->timer_start(ctx_), "timer_start");
}

double Context::timer_stop_ms() {
  CAE_REQUIRE_MEMBER(timer_stop);
  double ms = 0.0;
  check(table_->timer_stop(ctx_, &ms), "timer_stop");
  return ms;
}

bool Context::has_memory_stats() const { return CAE_TABLE_HAS(table_, memory_stats); }

void Context::memory_stats(uint64_t& in_use, uint64_t& peak) const {
  CAE_REQUIRE_MEMBER(memory_stats);
  check(table_->memory_stats(ctx_, &in_use, &peak), "memory_stats");
}

bool Context::has_host_memory() const {
  // Both or neither (backend.h): a table with only one of them gets neither used.
  return CAE_TABLE_HAS(table_, host_alloc) && CAE_TABLE_HAS(table_, host_free);
}

void* Context::host_alloc(size_t bytes) {
  if (!has_host_memory()) {
    throw BackendError(CAE_STATUS_UNSUPPORTED,
                       backend_name() + ": host_alloc is not supported by this backend");
  }
  void* ptr = nullptr;
  check(table_->host_alloc(ctx_, bytes, &ptr), "host_alloc");
  if (!ptr) {
    throw BackendError(CAE_STATUS_INTERNAL,
                       backend_name() + ": host_alloc returned OK but no memory");
  }
  return ptr;
}

void Context::host_free(void* ptr) noexcept {
  if (ptr && has_host_memory()) table_->host_free(ctx_, ptr);
}

bool Context::has_svm_dual_solve() const { return CAE_TABLE_HAS(table_, svm_dual_solve); }

bool Context::svm_dual_transposes() const {
  return has_svm_dual_solve() && table_->abi_minor >= 9;
}

void Context::svm_dual_solve(std::vector<cae_svm_dual_problem>& problems) {
  CAE_REQUIRE_MEMBER(svm_dual_solve);
  if (problems.empty()) return;
  for (cae_svm_dual_problem& p : problems) p.struct_size = sizeof(cae_svm_dual_problem);
  check(table_->svm_dual_solve(ctx_, problems.data(), static_cast<int32_t>(problems.size())),
        "svm_dual_solve");
}

}  // namespace cae
