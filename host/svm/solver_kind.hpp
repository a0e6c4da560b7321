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

}  // namespace cae::svm
