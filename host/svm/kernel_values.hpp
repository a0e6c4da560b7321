// How the SMO solver holds a kernel's values.
//
// Every SMO step streams two kernel rows from memory, and on a many-core
// machine the solvers of the pairs in flight together are bound by that
// traffic (docs/classifiers.md, "search phases"). An RBF kernel's values all
// lie in [0, 1], so they fit 16-bit fixed point ("unorm16", v = q / 65535)
// within 7.7e-6 of the float32 the backend computed: half the bytes per step,
// and half the memory a class pair holds while it is solved, so the memory
// cap lets more pairs be solved at once.
// The solver then solves the kernel as rounded (its gradients stay consistent
// with what it reads), so the model differs from the float32 one by about what
// that rounding moves the problem, well inside the solver's own tolerance on
// CIFAR-10-sized pairs; "float32" keeps the values as computed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cae::svm {

enum class KernelValues {
  Auto,     // unorm16 for the candidates of a search with the RBF kernel, float32 otherwise
  Float32,  // as the backend computed them
  Unorm16,  // RBF only: 16-bit fixed point in [0, 1]
};

// "auto", "float32" or "unorm16"; throws SvmError listing the choices otherwise.
KernelValues parse_kernel_values(const std::string& text);
const char* kernel_values_name(KernelValues values);

// One step of unorm16: q stands for q * kUnorm16Step.
constexpr double kUnorm16Step = 1.0 / 65535.0;

inline double kernel_value(float value) { return static_cast<double>(value); }
inline double kernel_value(uint16_t value) { return static_cast<double>(value) * kUnorm16Step; }

// The nearest unorm16 of a kernel value in [0, 1]; values a rounding outside
// it (an RBF kernel's exp of a distance that came out just below 0) are
// clamped. Throws SvmError for NaN or a value further outside.
uint16_t to_unorm16(float value);

// Rewrites `count` floats at `values` as unorm16 in place, front to back: the
// result occupies the first 2 * count bytes. Returns it. Throws SvmError as
// to_unorm16() does, naming the first bad value's index.
uint16_t* convert_to_unorm16(float* values, size_t count);
// The same from `in` into `out` (apart from it), on up to `threads` threads.
void convert_to_unorm16(const float* in, size_t count, uint16_t* out, int threads);

}  // namespace cae::svm
