// Reference 2x2 max-pool (stride 2) and its backward with the ABI's tie rule.
#include "reference_ops.hpp"
#include "size_check.hpp"

namespace cae_ref {
namespace {

void check_input(const char* op, const ImageDims& d, const Vec& x) {
  require_that(d.h % 2 == 0 && d.w % 2 == 0, op, "height and width must be even");
  require_size(op, "x", x, d.count());
}

// Offsets of the window's four elements in the order the tie rule names:
// (0,0), (0,1), (1,0), (1,1).
struct Window {
  int64_t at[4];
};
Window window_of(const ImageDims& d, int64_t plane, int64_t oi, int64_t oj) {
  const int64_t top_left = (plane * d.h + 2 * oi) * d.w + 2 * oj;
  return {{top_left, top_left + 1, top_left + d.w, top_left + d.w + 1}};
}

// Index (0..3) of the FIRST element equal to the window's max.
int first_max(const Vec& x, const Window& win) {
  int best = 0;
  for (int e = 1; e < 4; ++e) {
    if (x[win.at[e]] > x[win.at[best]]) best = e;  // strictly greater: earlier wins ties
  }
  return best;
}

}  // namespace

Vec maxpool2x2_forward(const ImageDims& d, const Vec& x) {
  check_input("maxpool2x2_forward", d, x);
  const int64_t oh = d.h / 2, ow = d.w / 2;
  Vec y(d.n * d.c * oh * ow);
  for (int64_t plane = 0; plane < d.n * d.c; ++plane) {
    for (int64_t oi = 0; oi < oh; ++oi) {
      for (int64_t oj = 0; oj < ow; ++oj) {
        const Window win = window_of(d, plane, oi, oj);
        y[(plane * oh + oi) * ow + oj] = x[win.at[first_max(x, win)]];
      }
    }
  }
  return y;
}

Vec maxpool2x2_backward(const ImageDims& d, const Vec& x, const Vec& dy) {
  check_input("maxpool2x2_backward", d, x);
  const int64_t oh = d.h / 2, ow = d.w / 2;
  require_size("maxpool2x2_backward", "dy", dy, d.n * d.c * oh * ow);
  Vec dx(d.count(), 0.0);
  for (int64_t plane = 0; plane < d.n * d.c; ++plane) {
    for (int64_t oi = 0; oi < oh; ++oi) {
      for (int64_t oj = 0; oj < ow; ++oj) {
        const Window win = window_of(d, plane, oi, oj);
        dx[win.at[first_max(x, win)]] = dy[(plane * oh + oi) * ow + oj];
      }
    }
  }
  return dx;
}

}  // namespace cae_ref
