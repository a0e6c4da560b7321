#pragma once
// The one check every loaded or written float array goes through: NaN and
// infinity are never valid in a checkpoint, optimiser state, feature matrix or
// SVM model, and a file holding one must be refused where it is read, with a
// message naming the file and the tensor, not found out epochs later.

#include <cstddef>
#include <string>

namespace cae {

// Index of the first NaN or infinity among `count` values, or `count` when
// every value is finite.
size_t first_non_finite(const float* values, size_t count);

// Throws IoError "<what> holds a non-finite value (nan) at index I" when a
// value is NaN or infinite.
void require_finite(const float* values, size_t count, const std::string& what);

}  // namespace cae
