// Which dual solver trains each class pair: our SMO on the float32 kernel as
// the backend wrote it (4 bytes per entry), or libsvm on its PRECOMPUTED node
// rows (16 bytes per entry), kept as the fallback and the reference.
#pragma once

#include <string>

namespace cae::svm {

enum class SolverKind { Smo, Libsvm };

// "smo" or "libsvm"; throws SvmError listing the choices otherwise.
SolverKind parse_solver_kind(const std::string& text);
const char* solver_kind_name(SolverKind kind);

// Where SMO solves the class pairs: on the host's cores (the backend computes
// the kernels, they come down), or on the backend (svm_dual_solve, ABI 1.8:
// the kernels stay on the device, svm/device_pairs.hpp). Auto: the backend
// where it offers the solver and has memory of its own (a GPU: its
// page-locked host memory members say so), the host otherwise.
enum class SolverPlace { Auto, Host, Backend };

// "auto", "host" or "backend"; throws SvmError listing the choices otherwise.
SolverPlace parse_solver_place(const std::string& text);
const char* solver_place_name(SolverPlace place);

}  // namespace cae::svm
