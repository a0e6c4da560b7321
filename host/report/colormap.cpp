#include "report/colormap.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace cae {
namespace {

// Nine evenly spaced anchors of each map; colours between them are linear
// blends, which is indistinguishable from the full tables at report sizes.
using Anchors = std::array<Rgb, 9>;

constexpr Anchors kBluesAnchors = {{{247, 251, 255},
                                    {222, 235, 247},
                                    {198, 219, 239},
                                    {158, 202, 225},
                                    {107, 174, 214},
                                    {66, 146, 198},
                                    {33, 113, 181},
                                    {8, 81, 156},
                                    {8, 48, 107}}};

constexpr Anchors kViridisAnchors = {{{68, 1, 84},
                                      {71, 45, 123},
                                      {59, 82, 139},
                                      {44, 114, 142},
                                      {33, 145, 140},
                                      {40, 174, 128},
                                      {94, 201, 98},
                                      {173, 220, 48},
                                      {253, 231, 37}}};

Rgb interpolate(const Anchors& anchors, double value) {
  if (!(value > 0.0)) return anchors.front();  // also catches NaN
  if (value >= 1.0) return anchors.back();
  double position = value * static_cast<double>(anchors.size() - 1);
  auto index = static_cast<std::size_t>(position);
  return mix(anchors[index], anchors[index + 1], position - static_cast<double>(index));
}

// Relative luminance of sRGB (WCAG definition).
double luminance(Rgb c) {
  auto linear = [](std::uint8_t channel) {
    double v = channel / 255.0;
    return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);
}

}  // namespace

Rgb map_color(ColorMap map, double value) {
  return interpolate(map == ColorMap::kViridis ? kViridisAnchors : kBluesAnchors, value);
}

Rgb readable_text_color(Rgb background) {
  // Contrast ratios against black and white are equal at luminance ~0.179.
  return luminance(background) > 0.179 ? Rgb{0, 0, 0} : Rgb{255, 255, 255};
}

}  // namespace cae
