// Winograd F(4x4, 3x3): the three transform matrices and the per-tile
// transforms built from them, for float (the kernels) and double (the tests).
//
// Interpolation points 0, 1, -1, 2, -2 and infinity (Lavin & Gray, 2016). A 6x6
// input tile d and a 3x3 filter g give the 4x4 "valid" correlation
//   y = A^T [ (G g G^T) .* (B^T d B) ] A,
// and, for the weight gradient, the adjoint of the same product:
//   dw = G^T [ (A dy A^T) .* (B^T d B) ] G     (dy a 4x4 output-gradient tile).
// Everything is __host__ __device__ so that the kernels and the CPU unit test
// (tests of the Winograd identity in double) run the very same code.
#pragma once

#ifdef __CUDACC__
#define WINOGRAD_HD __host__ __device__ __forceinline__
#else
#define WINOGRAD_HD inline
#endif

// Unrolls the fixed-size tile loops in device code; the host compiler (which
// sees the .cu files too, and the unit test) does not know the pragma.
#if defined(__CUDA_ARCH__)
#define WINOGRAD_UNROLL _Pragma("unroll")
#else
#define WINOGRAD_UNROLL
#endif

namespace cae_winograd {

constexpr int kTileIn = 6;   // input tile edge (m + r - 1)
constexpr int kTileOut = 4;  // output tile edge m
constexpr int kTaps = 3;     // filter edge r
constexpr int kPoints = kTileIn * kTileIn;  // 36 independent GEMMs

// B^T (6x6): the input transform.
template <typename T>
WINOGRAD_HD T input_matrix_bt(int i, int j) {
  const T m[6][6] = {{4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
                     {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
  return m[i][j];
}

// G (6x3): the filter transform.
template <typename T>
WINOGRAD_HD T filter_matrix_g(int i, int j) {
  const T m[6][3] = {{T(1) / 4, 0, 0},
                     {T(-1) / 6, T(-1) / 6, T(-1) / 6},
                     {T(-1) / 6, T(1) / 6, T(-1) / 6},
                     {T(1) / 24, T(1) / 12, T(1) / 6},
                     {T(1) / 24, T(-1) / 12, T(1) / 6},
                     {0, 0, 1}};
  return m[i][j];
}

// A^T (4x6): the output transform.
template <typename T>
WINOGRAD_HD T output_matrix_at(int i, int j) {
  const T m[4][6] = {
      {1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}};
  return m[i][j];
}

// v = B^T d B
template <typename T>
WINOGRAD_HD void input_transform(const T (&d)[6][6], T (&v)[6][6]) {
  T t[6][6];
WINOGRAD_UNROLL
  for (int i = 0; i < 6; ++i)
WINOGRAD_UNROLL
    for (int j = 0; j < 6; ++j) {
      T s = 0;
WINOGRAD_UNROLL
      for (int k = 0; k < 6; ++k) s += input_matrix_bt<T>(i, k) * d[k][j];
      t[i][j] = s;
    }
WINOGRAD_UNROLL
  for (int i = 0; i < 6; ++i)
WINOGRAD_UNROLL
    for (int j = 0; j < 6; ++j) {
      T s = 0;
WINOGRAD_UNROLL
      for (int k = 0; k < 6; ++k) s += t[i][k] * input_matrix_bt<T>(j, k);
      v[i][j] = s;
    }
}

// u = G g G^T
template <typename T>
WINOGRAD_HD void filter_transform(const T (&g)[3][3], T (&u)[6][6]) {
  T t[6][3];
WINOGRAD_UNROLL
  for (int i = 0; i < 6; ++i)
WINOGRAD_UNROLL
    for (int j = 0; j < 3; ++j) {
      T s = 0;
WINOGRAD_UNROLL
      for (int k = 0; k < 3; ++k) s += filter_matrix_g<T>(i, k) * g[k][j];
      t[i][j] = s;
    }
WINOGRAD_UNROLL
  for (int i = 0; i < 6; ++i)
WINOGRAD_UNROLL
    for (int j = 0; j < 6; ++j) {
      T s = 0;
WINOGRAD_UNROLL
      for (int k = 0; k < 3; ++k) s += t[i][k] * filter_matrix_g<T>(j, k);
      u[i][j] = s;
    }
}

// y = A^T m A
template <typename T>
WINOGRAD_HD void output_transform(const T (&m)[6][6], T (&y)[4][4]) {
  T t[4][6];
WINOGRAD_UNROLL
  for (int i = 0; i < 4; ++i)
WINOGRAD_UNROLL
    for (int j = 0; j < 6; ++j) {
      T s = 0;
WINOGRAD_UNROLL
      for (int k = 0; k < 6; ++k) s += output_matrix_at<T>(i, k) * m[k][j];
      t[i][j] = s;
    }
WINOGRAD_UNROLL
  for (int i = 0; i < 4; ++i)
WINOGRAD_UNROLL
    for (int j = 0; j < 4; ++j) {
      T s = 0;
WINOGRAD_UNROLL
      for (int k = 0; k < 6; ++k) s += t[i][k] * output_matrix_at<T>(j, k);
      y[i][j] = s;
    }
}

// e = A dy A^T: the adjoint of the output transform (4x4 -> 6x6), the
// output gradient in the Winograd domain (weight gradient).
template <typename T>
WINOGRAD_HD void output_gradient_transform(const T (&dy)[4][4], T (&e)[6][6]) {
  T t[6][4];
WINOGRAD_UNROLL
  for (int i = 0; i < 6; ++i)
WINOGRAD_UNROLL
    for (int j = 0; j < 4; ++j) {
      T s = 0;
WINOGRAD_UNROLL
      for (int k = 0; k < 4; ++k) s += output_matrix_at<T>(k, i) * dy[k][j];
      t[i][j] = s;
    }
WINOGRAD_UNROLL
  for (int i = 0; i < 6; ++i)
WINOGRAD_UNROLL
    for (int j = 0; j < 6; ++j) {
      T s = 0;
WINOGRAD_UNROLL
      for (int k = 0; k < 4; ++k) s += t[i][k] * output_matrix_at<T>(k, j);
      e[i][j] = s;
    }
}

// dw = G^T du G: the adjoint of the filter transform (6x6 -> 3x3).
template <typename T>
WINOGRAD_HD void filter_gradient_transform(const T (&du)[6][6], T (&dw)[3][3]) {
  T t[3][6];
WINOGRAD_UNROLL
  for (int i = 0; i < 3; ++i)
WINOGRAD_UNROLL
    for (int j = 0; j < 6; ++j) {
      T s = 0;
WINOGRAD_UNROLL
      for (int k = 0; k < 6; ++k) s += filter_matrix_g<T>(k, i) * du[k][j];
      t[i][j] = s;
    }
WINOGRAD_UNROLL
  for (int i = 0; i < 3; ++i)
WINOGRAD_UNROLL
    for (int j = 0; j < 3; ++j) {
      T s = 0;
WINOGRAD_UNROLL
      for (int k = 0; k < 6; ++k) s += t[i][k] * filter_matrix_g<T>(k, j);
      dw[i][j] = s;
    }
}

// Tiles along one image edge of `extent` pixels: partial tiles at the border
// are padded with zeros (inputs) or dropped (outputs).
WINOGRAD_HD long long tiles_along(long long extent) { return (extent + kTileOut - 1) / kTileOut; }

}  // namespace cae_winograd
