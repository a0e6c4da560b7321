// v4's TMA GEMM for the forward and data-gradient convolutions:
//   D[pixels x N] = gather(T, sign)[pixels x taps*C] * B[N x taps*C]^T
// where T is a BF16 NHWC tensor (x, or dy with sign -1) and B a prepared BF16
// weight form. Its K tile is one tap and 64 channels, so the A tile of 128
// consecutive pixels is one box of the tensor shifted by the tap: whole image
// rows (W x 128/W), or whole images for small ones (H x W x 128/(H W)). The
// copy engine fetches it with the image borders zero-filled (coordinates
// outside the tensor read as zeros), and B's 64 x BN box beside it; one
// thread issues both, the stage's mbarrier counts their bytes.
//
// A block is two warpgroups and owns a 128 x BN tile of D, as in the cp.async
// GEMM (v4_igemm.cuh), kStages stages deep: step i waits for tile i's bytes,
// then a barrier ensures both warpgroups finished step i - 1's wgmma, whose
// stage thread 0 refills with tile i + kStages - 1.
// Used when the box fits: channels % 64 == 0 and whole rows or images make
// 128 pixels (tap_box_shape); otherwise the cp.async GEMM runs.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "v4_igemm.cuh"
#include "v4_tma.cuh"

namespace cae_v4 {

// Where tile (m-tile, K tile) of the gathered operand lies in the tensor map's
// coordinates (channel, w, h, image).
struct TapBoxes {
  int K;               // kernel size (taps = K * K)
  int sign;            // +1: gather x (forward); -1: gather dy (data gradient)
  int channel_blocks;  // channels / 64: K tiles per tap
  int H, W;
  __device__ void origin(int m0, int& image, int& row) const {
    const int per_image = H * W;
    image = m0 / per_image;
    row = (m0 - image * per_image) / W;
  }
  __device__ void at(int k_tile, int& channel, int& dh, int& dw) const {
    const int tap = k_tile / channel_blocks;
    channel = (k_tile - tap * channel_blocks) * kTileK;
    dh = sign * (tap / K - K / 2);
    dw = sign * (tap % K - K / 2);
  }
};

template <int BN>
struct TmaTileShape {
  static constexpr int stages = Stages<BN>::value;
  static constexpr uint32_t a_bytes = kTileM * kTileK * 2;
  static constexpr uint32_t b_bytes = BN * kTileK * 2;
  static constexpr uint32_t stage_bytes = a_bytes + b_bytes;
  // Stages from a 1024-byte aligned start (up to 1 KiB lost aligning), then one barrier each.
  static constexpr uint32_t shared_bytes = stages * stage_bytes + kSwizzleAtomBytes + stages * 8;
};

template <int BN, class Epilogue>
__global__ void __launch_bounds__(kBlockThreads, 2)
    tma_igemm_kernel(const __grid_constant__ CUtensorMap a_map,
                     const __grid_constant__ CUtensorMap b_map, const TapBoxes boxes,
                     const Epilogue epilogue, int k_tiles) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using Shape = TmaTileShape<BN>;
  constexpr int kStages = Shape::stages;
  extern __shared__ unsigned char shared[];
  const uint32_t base = (shared_address(shared) + kSwizzleAtomBytes - 1) & ~(kSwizzleAtomBytes - 1);
  const uint32_t barriers = base + kStages * Shape::stage_bytes;
  const int m0 = int(blockIdx.x) * kTileM, n0 = int(blockIdx.y) * BN;
  const int warpgroup = int(threadIdx.x) / 128;
  const bool producer = threadIdx.x == 0;

  int image = 0, row = 0;
  boxes.origin(m0, image, row);
  if (producer) {
#pragma unroll
    for (int s = 0; s < kStages; ++s) barrier_init(barriers + 8 * s, 1);
    fence_barrier_init();
  }
  __syncthreads();

  auto issue = [&](int i) {
    const uint32_t stage = base + uint32_t(i % kStages) * Shape::stage_bytes;
    const uint32_t barrier = barriers + 8 * uint32_t(i % kStages);
    int channel, dh, dw;
    boxes.at(i, channel, dh, dw);
    barrier_expect_bytes(barrier, Shape::stage_bytes);
    copy_box_4d(stage, a_map, channel, dw, row + dh, image, barrier);
    copy_box_2d(stage + Shape::a_bytes, b_map, i * kTileK, n0, barrier);
  };
  if (producer) {
    for (int s = 0; s < kStages - 1 && s < k_tiles; ++s) issue(s);
  }

  float acc[BN / 2];
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) acc[i] = 0.0f;
  for (int i = 0; i < k_tiles; ++i) {
    barrier_wait(barriers + 8 * uint32_t(i % kStages), uint32_t(i / kStages) & 1u);
    __syncthreads();  // every warpgroup is past step i - 1: its stage may be refilled
    if (producer && i + kStages - 1 < k_tiles) issue(i + kStages - 1);

    const uint32_t stage = base + uint32_t(i % kStages) * Shape::stage_bytes;
    const uint32_t a_base = stage + uint32_t(warpgroup) * 64 * 128;
    const uint32_t b_base = stage + Shape::a_bytes;
    wgmma_fence();
#pragma unroll
    for (int step = 0; step < kTileK / 16; ++step) {
      Wgmma<BN, 0, 0>::run(acc, swizzled_descriptor(a_base + step * kSwizzledStepBytes),
                           swizzled_descriptor(b_base + step * kSwizzledStepBytes));
    }
    wgmma_commit();
    wgmma_wait_all();
    pin_accumulators(acc);
  }
  store_accumulators<BN>(acc, epilogue, m0, n0, warpgroup);
#else
  (void)a_map, (void)b_map, (void)boxes, (void)epilogue, (void)k_tiles;
#endif
}

}  // namespace cae_v4
