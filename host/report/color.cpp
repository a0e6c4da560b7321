#include "report/color.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace cae {
namespace {

std::uint8_t lerp_channel(std::uint8_t from, std::uint8_t to, double t) {
  double value = from + (static_cast<double>(to) - from) * t;
  return static_cast<std::uint8_t>(std::clamp(std::lround(value), 0L, 255L));
}

}  // namespace

Rgb mix(Rgb from, Rgb to, double t) {
  t = std::clamp(t, 0.0, 1.0);
  return Rgb{lerp_channel(from.r, to.r, t), lerp_channel(from.g, to.g, t),
             lerp_channel(from.b, to.b, t)};
}

Rgb series_color(std::size_t index) {
  static constexpr std::array<Rgb, 10> kTab10 = {{{31, 119, 180},
                                                  {255, 127, 14},
                                                  {44, 160, 44},
                                                  {214, 39, 40},
                                                  {148, 103, 189},
                                                  {140, 86, 75},
                                                  {227, 119, 194},
                                                  {127, 127, 127},
                                                  {188, 189, 34},
                                                  {23, 190, 207}}};
  return kTab10[index % kTab10.size()];
}

}  // namespace cae
