// NCHW <-> NHWC (more generally [A,B,C,D] <-> [A,C,D,B]) at the boundary.
#include "naive_kernels.cuh"
#include "naive_layout.hpp"

namespace naive {
namespace {

// dst [images, pixels, channels] <- src [images, channels, pixels];
// one thread per destination element.
__global__ void channels_last_kernel(const float* src, float* dst, int64_t images, int64_t channels,
                                     int64_t pixels) {
  const int64_t total = images * channels * pixels;
  for (int64_t i = global_thread_index(); i < total; i += grid_thread_count()) {
    const int64_t channel = i % channels;
    const int64_t rest = i / channels;
    const int64_t pixel = rest % pixels;
    const int64_t image = rest / pixels;
    dst[i] = src[(image * channels + channel) * pixels + pixel];
  }
}

// dst [images, channels, pixels] <- src [images, pixels, channels];
// one thread per destination element.
__global__ void channels_first_kernel(const float* src, float* dst, int64_t images,
                                      int64_t channels, int64_t pixels) {
  const int64_t total = images * channels * pixels;
  for (int64_t i = global_thread_index(); i < total; i += grid_thread_count()) {
    const int64_t pixel = i % pixels;
    const int64_t rest = i / pixels;
    const int64_t channel = rest % channels;
    const int64_t image = rest / channels;
    dst[i] = src[(image * pixels + pixel) * channels + channel];
  }
}

}  // namespace

StorageOrder storage_order_of(const cae_plugin::Shape& shape) {
  StorageOrder order;
  if (shape.ndim == 4 && shape[1] > 1 && shape[2] * shape[3] > 1) {
    order.channels = shape[1];
    order.pixels = shape[2] * shape[3];
  }
  return order;
}

std::vector<StorageOrder> elementwise_orders(std::initializer_list<const cae_tensor_s*> tensors) {
  std::vector<StorageOrder> orders;
  bool all_same = true;
  for (const cae_tensor_s* tensor : tensors) {
    orders.push_back(tensor ? storage_order_of(tensor->shape) : StorageOrder{});
    if (tensor && !(orders.back() == orders.front())) all_same = false;
  }
  if (all_same) orders.assign(orders.size(), StorageOrder{});
  return orders;
}

void upload_tensor(cae_context_s& ctx, cae_tensor_s& tensor, const float* src) {
  const StorageOrder order = storage_order_of(tensor.shape);
  if (order.is_identity()) {
    CAE_CUDA_CHECK(
        cudaMemcpyAsync(tensor.data, src, tensor.bytes(), cudaMemcpyHostToDevice, ctx.stream));
  } else {
    float* staging = ctx.scratch_floats(ctx.staging, tensor.count(), "upload staging");
    CAE_CUDA_CHECK(
        cudaMemcpyAsync(staging, src, tensor.bytes(), cudaMemcpyHostToDevice, ctx.stream));
    const int64_t images = tensor.shape[0];
    channels_last_kernel<<<blocks_for(tensor.shape.count()), kThreadsPerBlock, 0, ctx.stream>>>(
        staging, tensor.data, images, order.channels, order.pixels);
    CAE_CUDA_CHECK_LAUNCH("channels_last_kernel");
  }
  // The caller may reuse src at once, and the staging buffer is shared.
  CAE_CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
}

void download_tensor(cae_context_s& ctx, const cae_tensor_s& tensor, float* dst) {
  const StorageOrder order = storage_order_of(tensor.shape);
  const float* source = tensor.data;
  if (!order.is_identity()) {
    float* staging = ctx.scratch_floats(ctx.staging, tensor.count(), "download staging");
    const int64_t images = tensor.shape[0];
    channels_first_kernel<<<blocks_for(tensor.shape.count()), kThreadsPerBlock, 0, ctx.stream>>>(
        tensor.data, staging, images, order.channels, order.pixels);
    CAE_CUDA_CHECK_LAUNCH("channels_first_kernel");
    source = staging;
  }
  CAE_CUDA_CHECK(cudaMemcpyAsync(dst, source, tensor.bytes(), cudaMemcpyDeviceToHost, ctx.stream));
  CAE_CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
}

}  // namespace naive
