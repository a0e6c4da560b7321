#include "svm/solver_kind.hpp"

#include "svm/svm_error.hpp"

namespace cae::svm {

SolverKind parse_solver_kind(const std::string& text) {
  if (text == "smo") return SolverKind::Smo;
  if (text == "libsvm") return SolverKind::Libsvm;
  throw SvmError("unknown SVM solver '" + text + "' (choose smo or libsvm)");
}

const char* solver_kind_name(SolverKind kind) { return kind == SolverKind::Smo ? "smo" : "libsvm"; }

SolverPlace parse_solver_place(const std::string& text) {
  if (text == "auto") return SolverPlace::Auto;
  if (text == "host") return SolverPlace::Host;
  if (text == "backend") return SolverPlace::Backend;
  throw SvmError("unknown place for the SVM's solver '" + text + "' (choose auto, host or backend)");
}

const char* solver_place_name(SolverPlace place) {
  switch (place) {
    case SolverPlace::Host:
      return "host";
    case SolverPlace::Backend:
      return "backend";
    default:
      return "auto";
  }
}

}  // namespace cae::svm
