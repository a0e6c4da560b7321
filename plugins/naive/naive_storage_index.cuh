// Device side of StorageOrder: the storage position of a boundary index.
#pragma once

#include "naive_layout.hpp"

namespace naive {

__device__ __forceinline__ int64_t storage_index(StorageOrder order, int64_t boundary_index) {
  if (order.channels == 1) return boundary_index;
  const int64_t image_size = order.channels * order.pixels;
  const int64_t image = boundary_index / image_size;
  const int64_t within_image = boundary_index - image * image_size;
  const int64_t channel = within_image / order.pixels;
  const int64_t pixel = within_image - channel * order.pixels;
  return image * image_size + pixel * order.channels + channel;
}

}  // namespace naive
