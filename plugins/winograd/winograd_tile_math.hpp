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

namespace cae_winograd {

constexpr int kTileIn = 6;                  // input tile edge (m + r - 1)
constexpr int kTileOut = 4;                 // output tile edge m
constexpr int kTaps = 3;                    // filter edge r
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

// s += a x, skipping the work where the matrix entry a is 0 or +-1. In the
// unrolled kernels a is a compile-time constant, so the branches fold away:
// the compiler may not drop 0 * x or 1 * x itself (IEEE NaN and signed zeros),
// and half the entries of B^T, G and A^T are 0 or +-1.
template <typename T>
WINOGRAD_HD void add_scaled(T& s, T a, T x) {
  if (a == T(0)) return;
  if (a == T(1)) {
    s += x;
  } else if (a == T(-1)) {
    s -= x;
  } else {
    s += a * x;
  }
}

// The three matrices as types, so the products below take them (and their
// transposes) as template arguments and index them with constants.
struct InputMatrixBt {
  template <typename T>
  static WINOGRAD_HD T at(int i, int j) {
    return input_matrix_bt<T>(i, j);
  }
};
struct FilterMatrixG {
  template <typename T>
  static WINOGRAD_HD T at(int i, int j) {
    return filter_matrix_g<T>(i, j);
  }
};
struct OutputMatrixAt {
  template <typename T>
  static WINOGRAD_HD T at(int i, int j) {
    return output_matrix_at<T>(i, j);
  }
};
template <class Matrix>
struct Transposed {
  template <typename T>
  static WINOGRAD_HD T at(int i, int j) {
    return Matrix::template at<T>(j, i);
  }
};

// The loops below have constant trip counts; fully unrolled on the device
// every matrix entry becomes a constant (and the host compiler, which sees
// this code too, does not know the pragma).
#if defined(__CUDA_ARCH__)
#define WINOGRAD_UNROLLED_LOOP(index, bound) \
  _Pragma("unroll") for (int index = 0; index < (bound); ++index)
#else
#define WINOGRAD_UNROLLED_LOOP(index, bound) for (int index = 0; index < (bound); ++index)
#endif

// out = L in, with L (Rows x Inner) given by Matrix::at.
template <class Matrix, int Rows, int Inner, int Cols, typename T>
WINOGRAD_HD void left_multiply(const T (&in)[Inner][Cols], T (&out)[Rows][Cols]) {
  WINOGRAD_UNROLLED_LOOP(i, Rows) {
    WINOGRAD_UNROLLED_LOOP(j, Cols) {
      T s = 0;
      WINOGRAD_UNROLLED_LOOP(k, Inner) { add_scaled(s, Matrix::template at<T>(i, k), in[k][j]); }
      out[i][j] = s;
    }
  }
}

// out = in R^T, with R (Cols x Inner) given by Matrix::at.
template <class Matrix, int Rows, int Inner, int Cols, typename T>
WINOGRAD_HD void right_multiply_transposed(const T (&in)[Rows][Inner], T (&out)[Rows][Cols]) {
  WINOGRAD_UNROLLED_LOOP(i, Rows) {
    WINOGRAD_UNROLLED_LOOP(j, Cols) {
      T s = 0;
      WINOGRAD_UNROLLED_LOOP(k, Inner) { add_scaled(s, Matrix::template at<T>(j, k), in[i][k]); }
      out[i][j] = s;
    }
  }
}

// v = B^T d B
template <typename T>
WINOGRAD_HD void input_transform(const T (&d)[6][6], T (&v)[6][6]) {
  T t[6][6];
  left_multiply<InputMatrixBt, 6, 6, 6>(d, t);
  right_multiply_transposed<InputMatrixBt, 6, 6, 6>(t, v);
}

// u = G g G^T
template <typename T>
WINOGRAD_HD void filter_transform(const T (&g)[3][3], T (&u)[6][6]) {
  T t[6][3];
  left_multiply<FilterMatrixG, 6, 3, 3>(g, t);
  right_multiply_transposed<FilterMatrixG, 6, 3, 6>(t, u);
}

// y = A^T m A
template <typename T>
WINOGRAD_HD void output_transform(const T (&m)[6][6], T (&y)[4][4]) {
  T t[4][6];
  left_multiply<OutputMatrixAt, 4, 6, 6>(m, t);
  right_multiply_transposed<OutputMatrixAt, 4, 6, 4>(t, y);
}

// e = A dy A^T: the adjoint of the output transform (4x4 -> 6x6), the
// output gradient in the Winograd domain (weight gradient).
template <typename T>
WINOGRAD_HD void output_gradient_transform(const T (&dy)[4][4], T (&e)[6][6]) {
  T t[6][4];
  left_multiply<Transposed<OutputMatrixAt>, 6, 4, 4>(dy, t);
  right_multiply_transposed<Transposed<OutputMatrixAt>, 6, 4, 6>(t, e);
}

// dw = G^T du G: the adjoint of the filter transform (6x6 -> 3x3).
template <typename T>
WINOGRAD_HD void filter_gradient_transform(const T (&du)[6][6], T (&dw)[3][3]) {
  T t[3][6];
  left_multiply<Transposed<FilterMatrixG>, 3, 6, 6>(du, t);
  right_multiply_transposed<Transposed<FilterMatrixG>, 3, 6, 3>(t, dw);
}

// Tiles along one image edge of `extent` pixels: partial tiles at the border
// are padded with zeros (inputs) or dropped (outputs).
WINOGRAD_HD long long tiles_along(long long extent) { return (extent + kTileOut - 1) / kTileOut; }

}  // namespace cae_winograd
