// The driver's cuTensorMapEncodeTiled, reached through the runtime's entry
// point query: the backend links the CUDA runtime statically and must not
// require libcuda at link time (the driver is loaded when the runtime starts).
#include "v4_tensor_maps.hpp"

#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <string>

#include "plugin_support.hpp"

namespace cae_v4 {
namespace {

PFN_cuTensorMapEncodeTiled_v12000 encode_function() {
  static const PFN_cuTensorMapEncodeTiled_v12000 function = [] {
    void* found = nullptr;
    cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    const cudaError_t error = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &found,
                                                               12000, cudaEnableDefault, &status);
    if (error != cudaSuccess || status != cudaDriverEntryPointSuccess || found == nullptr) {
      cae_plugin::fail(CAE_STATUS_DEVICE_ERROR,
                       "v4: the CUDA driver has no cuTensorMapEncodeTiled (needs CUDA 12 or "
                       "later): " +
                           std::string(cudaGetErrorString(error)));
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(found);
  }();
  return function;
}

CUtensorMap encode(const void* data, cuuint32_t rank, const cuuint64_t* dims,
                   const cuuint64_t* strides_bytes, const cuuint32_t* box, const char* what) {
  CUtensorMap map{};
  const cuuint32_t element_strides[4] = {1, 1, 1, 1};
  const CUresult result = encode_function()(
      &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, rank, const_cast<void*>(data), dims, strides_bytes,
      box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS) {
    cae_plugin::fail(CAE_STATUS_INTERNAL, std::string("v4: cuTensorMapEncodeTiled refused the ") +
                                              what + " (CUresult " + std::to_string(int(result)) +
                                              ")");
  }
  return map;
}

}  // namespace

CUtensorMap image_box_map(const void* data, int64_t images, int64_t H, int64_t W, int64_t channels,
                          int box_rows, int box_images) {
  const cuuint64_t dims[4] = {cuuint64_t(channels), cuuint64_t(W), cuuint64_t(H),
                              cuuint64_t(images)};
  const cuuint64_t strides[3] = {cuuint64_t(channels) * 2, cuuint64_t(W * channels) * 2,
                                 cuuint64_t(H * W * channels) * 2};
  const cuuint32_t box[4] = {64, cuuint32_t(W), cuuint32_t(box_rows), cuuint32_t(box_images)};
  return encode(data, 4, dims, strides, box, "image tensor map");
}

CUtensorMap matrix_box_map(const void* data, int64_t rows, int64_t row_length, int box_rows) {
  const cuuint64_t dims[2] = {cuuint64_t(row_length), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(row_length) * 2};
  const cuuint32_t box[2] = {64, cuuint32_t(box_rows)};
  return encode(data, 2, dims, strides, box, "weight tensor map");
}

}  // namespace cae_v4
