// v4's TMA GEMM, for all three GEMMs of a layer when the boxes fit. Forward
// and data gradient (TapShiftedRows):
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
// GEMM (v4_igemm.cuh), kStages stages deep: step i waits for tile i's bytes
// and issues its wgmma; with those in flight, a barrier ensures both
// warpgroups finished step i - 1's, whose stage thread 0 then refills with
// tile i + kStages - 1 (the tensor cores never wait for the barrier).
// The weight gradient runs the same kernel with K = pixels (TapShiftedPixels):
// the same NHWC boxes, read as MN-major operands (wgmma's transpose flags).
// Which shapes fit a box: tap_box_shape and pixel_box_shape (v4_conv.cu);
// the others run the cp.async GEMM (v4_igemm.cuh).
#pragma once

#include <cuda.h>

#include <cstdint>

#include "v4_igemm.cuh"
#include "v4_tma.cuh"

namespace cae_v4 {

// The forward and data-gradient loads: A is a box of the gathered NHWC
// tensor (coordinates channel, w, h, image) shifted by the K tile's tap, B a
// box of the prepared weights [N rows][taps * channels].
struct TapShiftedRows {
  static constexpr bool kMnMajor = false;
  int K;               // kernel size (taps = K * K)
  int sign;            // +1: gather x (forward); -1: gather dy (data gradient)
  int channel_blocks;  // channels / 64: K tiles per tap
  int H, W;
  __device__ void issue(const CUtensorMap& a_map, const CUtensorMap& b_map, int k_tile, int m0,
                        int n0, uint32_t a_tile, uint32_t b_tile, uint32_t barrier) const {
    const int per_image = H * W;
    const int image = m0 / per_image, row = (m0 - image * per_image) / W;
    const int tap = k_tile / channel_blocks;
    const int channel = (k_tile - tap * channel_blocks) * kTileK;
    const int dh = sign * (tap / K - K / 2), dw = sign * (tap % K - K / 2);
    copy_box_4d(a_tile, a_map, channel, dw, row + dh, image, barrier);
    copy_box_2d(b_tile, b_map, k_tile * kTileK, n0, barrier);
  }
};

// The weight-gradient loads, K = pixels: dW[o][t*C+c] = sum over p of
// dy[p][o] * x[p shifted by tap t][c]. Both operands are MN-major: a box of
// 64 channels x 64 pixels (whole image rows, or whole small images) of the
// BF16 NHWC tensor puts each pixel's 64 channels in one 128-byte row, the
// MN-major 128-byte swizzled layout; A (dy) takes two such boxes for its 128
// rows, B (x, shifted by the N tile's tap) BN / 64. The image border is
// zero-filled by the copy, as in the forward.
struct TapShiftedPixels {
  static constexpr bool kMnMajor = true;
  int K;  // kernel size
  int C;  // channels of x (an N tile never straddles two taps: C % BN == 0)
  int H, W;
  int b_boxes;  // BN / 64
  __device__ void issue(const CUtensorMap& a_map, const CUtensorMap& b_map, int k_tile, int m0,
                        int n0, uint32_t a_tile, uint32_t b_tile, uint32_t barrier) const {
    const int per_image = H * W, p0 = k_tile * kTileK;
    const int image = p0 / per_image, row = (p0 - image * per_image) / W;
    const int tap = n0 / C, channel = n0 - tap * C;
    const int dh = tap / K - K / 2, dw = tap % K - K / 2;
    for (int h = 0; h < kTileM / 64; ++h) {
      copy_box_4d(a_tile + h * kMnAtomColumnBytes, a_map, m0 + 64 * h, 0, row, image, barrier);
    }
    for (int h = 0; h < b_boxes; ++h) {
      copy_box_4d(b_tile + h * kMnAtomColumnBytes, b_map, channel + 64 * h, dw, row + dh, image,
                  barrier);
    }
  }
  __device__ uint64_t descriptor(uint32_t address) const { return mn_major_descriptor(address); }
};

// The cp.async GEMM's stages (TileShape), started 1024-byte aligned (up to
// 1 KiB lost aligning) and followed by one mbarrier each.
template <int BN>
struct TmaTileShape : TileShape<BN, Stages<BN>::value> {
  using Base = TileShape<BN, Stages<BN>::value>;
  static constexpr int stages = Stages<BN>::value;
  static constexpr uint32_t shared_bytes = Base::shared_bytes + kSwizzleAtomBytes + stages * 8;
};

// blockIdx.z selects a slice of k_tiles_per_split K tiles (split-K).
template <int BN, class Loads, class Epilogue>
__global__ void __launch_bounds__(kBlockThreads, 2)
    tma_igemm_kernel(const __grid_constant__ CUtensorMap a_map,
                     const __grid_constant__ CUtensorMap b_map, const Loads loads,
                     const Epilogue epilogue, int k_tiles, int k_tiles_per_split) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using Shape = TmaTileShape<BN>;
  constexpr int kStages = Shape::stages;
  extern __shared__ unsigned char shared[];
  const uint32_t base = (shared_address(shared) + kSwizzleAtomBytes - 1) & ~(kSwizzleAtomBytes - 1);
  const uint32_t barriers = base + kStages * Shape::stage_bytes;
  const int m0 = int(blockIdx.x) * kTileM, n0 = int(blockIdx.y) * BN;
  const int warpgroup = int(threadIdx.x) / 128;
  const bool producer = threadIdx.x == 0;
  const int k_begin = int(blockIdx.z) * k_tiles_per_split;
  const int tiles = min(k_begin + k_tiles_per_split, k_tiles) - k_begin;

  if (producer) {
#pragma unroll
    for (int s = 0; s < kStages; ++s) barrier_init(barriers + 8 * s, 1);
    fence_barrier_init();
  }
  __syncthreads();
  cae_plugin::cuda::begin_after_prior_kernels();  // the barriers' setup overlaps the last kernel

  auto issue = [&](int i) {
    const uint32_t stage = base + uint32_t(i % kStages) * Shape::stage_bytes;
    const uint32_t barrier = barriers + 8 * uint32_t(i % kStages);
    barrier_expect_bytes(barrier, Shape::stage_bytes);
    loads.issue(a_map, b_map, k_begin + i, m0, n0, stage, stage + Shape::a_bytes, barrier);
  };
  if (producer) {
    for (int s = 0; s < kStages - 1 && s < tiles; ++s) issue(s);
  }

  float acc[BN / 2];
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) acc[i] = 0.0f;
  for (int i = 0; i < tiles; ++i) {
    barrier_wait(barriers + 8 * uint32_t(i % kStages), uint32_t(i / kStages) & 1u);
    const uint32_t stage = base + uint32_t(i % kStages) * Shape::stage_bytes;
    const uint32_t a_base = stage + uint32_t(warpgroup) * 64 * 128;
    const uint32_t b_base = stage + Shape::a_bytes;
    wgmma_fence();
#pragma unroll
    for (int step = 0; step < kTileK / 16; ++step) {
      if constexpr (Loads::kMnMajor) {
        Wgmma<BN, 1, 1>::run(acc, loads.descriptor(a_base + step * kMnStepBytes),
                             loads.descriptor(b_base + step * kMnStepBytes));
      } else {
        Wgmma<BN, 0, 0>::run(acc, swizzled_descriptor(a_base + step * kSwizzledStepBytes),
                             swizzled_descriptor(b_base + step * kSwizzledStepBytes));
      }
    }
    wgmma_commit();
    // Step i's products stay in flight while the block moves on; step i - 1's
    // are done (in both warpgroups, after the barrier), so its stage may be refilled.
    wgmma_wait<1>();
    pin_accumulators(acc);
    __syncthreads();
    if (producer && i + kStages - 1 < tiles) issue(i + kStages - 1);
  }
  wgmma_wait_all();
  pin_accumulators(acc);
  store_accumulators<BN>(acc, epilogue, m0, n0, warpgroup);
#else
  (void)a_map, (void)b_map, (void)loads, (void)epilogue, (void)k_tiles, (void)k_tiles_per_split;
#endif
}

}  // namespace cae_v4
