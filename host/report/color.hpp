// Colours of the report's figures.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cae {

struct Rgb {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;
};

inline bool operator==(Rgb a, Rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; }
inline bool operator!=(Rgb a, Rgb b) { return !(a == b); }

// Linear mix: t = 0 gives `from`, t = 1 gives `to` (t is clamped to [0, 1]).
Rgb mix(Rgb from, Rgb to, double t);

// The i-th colour of matplotlib's "tab10" palette (cycling): distinct, also
// for most colour-blind readers, so a backend or a run keeps one colour in
// every figure of a page.
Rgb series_color(std::size_t index);

// Text and frame colours shared by every figure.
constexpr Rgb kInk{40, 40, 40};
constexpr Rgb kAxisColor{110, 110, 110};
constexpr Rgb kGridColor{228, 228, 228};

}  // namespace cae
