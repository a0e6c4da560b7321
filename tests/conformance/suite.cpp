#include "suite.hpp"

namespace conformance {

Suite& suite() {
  static Suite the_suite;
  return the_suite;
}

double tolerance_for(cae_precision precision) {
  return precision == CAE_PRECISION_FP32 ? 1e-4 : 5e-3;
}

}  // namespace conformance
