#pragma once
// The eigendecomposition of a symmetric matrix, by LAPACK's divide-and-conquer
// solver (DSYEVD, from OpenBLAS): what whitening learns its transform from.

#include <vector>

namespace cae {

// Eigenvalues (ascending) and eigenvectors (columns of `vectors`, row-major
// n x n: vectors[r * n + c] is component r of eigenvector c) of the symmetric
// n x n matrix `matrix` (row-major). Throws std::runtime_error when LAPACK
// reports a failure.
void symmetric_eigen(std::vector<double> matrix, int n, std::vector<double>& values,
                     std::vector<double>& vectors);

}  // namespace cae
