#include "suite.hpp"

namespace conformance {

Suite& suite() {
  static Suite the_suite;
  return the_suite;
}

}  // namespace conformance
