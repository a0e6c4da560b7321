#include "data/symmetric_eigen.hpp"

#include <algorithm>
#include <stdexcept>

// LAPACK's symmetric eigensolver (divide and conquer), from OpenBLAS, which
// carries LAPACK: Debian ships no LAPACKE header with it.
extern "C" void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a,
                        const int* lda, double* w, double* work, const int* lwork, int* iwork,
                        const int* liwork, int* info);

namespace cae {

void symmetric_eigen(std::vector<double> matrix, int n, std::vector<double>& values,
                     std::vector<double>& vectors) {
  values.assign(size_t(n), 0.0);
  int lwork = -1, liwork = -1, info = 0, iwork_size = 0;
  double work_size = 0;
  // Row-major symmetric is column-major symmetric: "U" of one is "L" of the other.
  dsyevd_("V", "U", &n, matrix.data(), &n, values.data(), &work_size, &lwork, &iwork_size, &liwork,
          &info);
  if (info != 0) throw std::runtime_error("whitening: the eigensolver's workspace query failed");
  lwork = int(work_size);
  liwork = iwork_size;
  std::vector<double> work(size_t(std::max(lwork, 1)));
  std::vector<int> iwork(size_t(std::max(liwork, 1)));
  dsyevd_("V", "U", &n, matrix.data(), &n, values.data(), work.data(), &lwork, iwork.data(),
          &liwork, &info);
  if (info != 0) {
    throw std::runtime_error("whitening: the covariance's eigendecomposition did not converge");
  }
  // LAPACK returns column-major eigenvectors: column c at matrix[c * n ...].
  vectors.assign(size_t(n) * size_t(n), 0.0);
  for (int c = 0; c < n; ++c) {
    for (int r = 0; r < n; ++r) vectors[size_t(r) * size_t(n) + size_t(c)] = matrix[size_t(c) * size_t(n) + size_t(r)];
  }
}

}  // namespace cae
