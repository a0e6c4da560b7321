#include "data/synthetic_images.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "data/cifar_format.hpp"
#include "data/random.hpp"

namespace cae::synthetic {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kSide = static_cast<int>(cifar::kImageSide);

enum Kind {
  kDisc,
  kRing,
  kSquare,
  kFrame,
  kTriangle,
  kCross,
  kHStripes,
  kVStripes,
  kChecker,
  kDots
};

struct Colour {
  double channel[3];
};

Colour random_colour(std::mt19937_64& rng) {
  return {{uniform01(rng), uniform01(rng), uniform01(rng)}};
}

// HSV (all in [0, 1], hue wrapping) to RGB.
Colour from_hsv(double hue, double saturation, double value) {
  hue = (hue - std::floor(hue)) * 6.0;
  const int sector = static_cast<int>(hue) % 6;
  const double f = hue - std::floor(hue);
  const double p = value * (1 - saturation), q = value * (1 - saturation * f),
               t = value * (1 - saturation * (1 - f));
  switch (sector) {
    case 0:
      return {{value, t, p}};
    case 1:
      return {{q, value, p}};
    case 2:
      return {{p, value, t}};
    case 3:
      return {{p, q, value}};
    case 4:
      return {{t, p, value}};
    default:
      return {{value, p, q}};
  }
}

// Like CIFAR-10's classes (sky behind planes, green around frogs), each class
// leans towards a hue of its own, but only for some images: colour helps
// without deciding.
Colour foreground_colour(size_t label, std::mt19937_64& rng) {
  constexpr double kFamilyShare = 0.6;
  if (uniform01(rng) >= kFamilyShare) return random_colour(rng);
  const double hue = static_cast<double>(label * 3 % kNumClasses) / kNumClasses;
  return from_hsv(hue + uniform(rng, -0.05, 0.05), uniform(rng, 0.5, 1.0), uniform(rng, 0.45, 1.0));
}

double distance(const Colour& a, const Colour& b) {
  double sum = 0;
  for (int c = 0; c < 3; ++c) sum += (a.channel[c] - b.channel[c]) * (a.channel[c] - b.channel[c]);
  return std::sqrt(sum);
}

// Pixel coordinates seen from a shape's centre, rotated into its own axes.
struct Placement {
  double cx = 16, cy = 16, cos_a = 1, sin_a = 0;

  void local(double px, double py, double& u, double& v) const {
    const double dx = px - cx, dy = py - cy;
    u = dx * cos_a + dy * sin_a;
    v = -dx * sin_a + dy * cos_a;
  }
};

// Near the centre, as photographed objects tend to be, but never cut off by
// more than `margin` allows.
Placement random_placement(std::mt19937_64& rng, double margin, double angle) {
  constexpr double kJitter = 6.0;
  const double low = std::max(margin, kSide / 2.0 - kJitter);
  const double high = std::max(low, std::min(kSide - margin, kSide / 2.0 + kJitter));
  Placement placement;
  placement.cx = uniform(rng, low, high);
  placement.cy = uniform(rng, low, high);
  placement.cos_a = std::cos(angle);
  placement.sin_a = std::sin(angle);
  return placement;
}

// Signed distance (pixels, negative inside) to an axis-aligned box of half-sizes hx, hy.
double box_distance(double u, double v, double hx, double hy) {
  const double qx = std::abs(u) - hx, qy = std::abs(v) - hy;
  const double outside = std::hypot(std::max(qx, 0.0), std::max(qy, 0.0));
  return outside + std::min(std::max(qx, qy), 0.0);
}

// Coverage of a pixel by a shape from its signed distance: a one-pixel soft
// edge stands in for anti-aliasing.
double coverage(double signed_distance) { return std::clamp(0.5 - signed_distance, 0.0, 1.0); }

// A class's appearance as a coverage function over the image, with every
// random parameter drawn once per image.
class Pattern {
 public:
  Pattern(size_t label, std::mt19937_64& rng) : kind_(static_cast<Kind>(label)) {
    radius_ = uniform(rng, 5.0, 11.0);
    width_ = radius_ * uniform(rng, 0.2, 0.32);
    period_ = uniform(rng, 4.0, 8.0);
    phase_ = uniform(rng, 0.0, 2 * kPi);
    double angle = uniform(rng, 0.0, 2 * kPi);
    if (kind_ == kCross) angle = uniform(rng, -0.3, 0.3);  // a plus, not an x
    if (kind_ == kHStripes) angle = uniform(rng, -0.25, 0.25);
    if (kind_ == kVStripes) angle = kPi / 2 + uniform(rng, -0.25, 0.25);
    placement_ = random_placement(rng, radius_ * 0.6, angle);
    if (kind_ == kDots) {
      const size_t dots = 5 + uniform_below(rng, 6);
      for (size_t i = 0; i < dots; ++i) {
        dots_.push_back({uniform(rng, 2.0, kSide - 2.0), uniform(rng, 2.0, kSide - 2.0),
                         uniform(rng, 1.2, 2.6)});
      }
    }
  }

  double at(double px, double py) const {
    double u, v;
    placement_.local(px, py, u, v);
    const double r = std::hypot(u, v);
    const double half = radius_ * 0.8;
    switch (kind_) {
      case kDisc:
        return coverage(r - radius_);
      case kRing:
        return coverage(std::abs(r - radius_) - width_);
      case kSquare:
        return coverage(box_distance(u, v, half, half));
      case kFrame:
        return coverage(std::abs(box_distance(u, v, half, half)) - width_ * 0.7);
      case kTriangle:
        return coverage(triangle_distance(u, v));
      case kCross:
        return coverage(
            std::min(box_distance(u, v, radius_, width_), box_distance(u, v, width_, radius_)));
      case kHStripes:  // stripes run along the rotated u axis
      case kVStripes:
        return wave(std::sin(2 * kPi * v / period_ + phase_), 1.5);
      case kChecker:
        return wave(std::sin(2 * kPi * u / period_ + phase_) * std::sin(2 * kPi * v / period_),
                    2.5);
      case kDots:
        return dots_at(px, py);
    }
    return 0;
  }

 private:
  struct Dot {
    double x, y, radius;
  };

  static double wave(double value, double sharpness) {
    return std::clamp(0.5 + sharpness * value, 0.0, 1.0);
  }

  // Farthest of the three edge half-planes of an equilateral triangle whose
  // inscribed circle has radius radius_ / 2.
  double triangle_distance(double u, double v) const {
    double d = -1e9;
    for (int k = 0; k < 3; ++k) {
      const double a = kPi / 2 + 2 * kPi * k / 3;
      d = std::max(d, u * std::cos(a) + v * std::sin(a) - radius_ * 0.5);
    }
    return d;
  }

  double dots_at(double px, double py) const {
    double d = 1e9;
    for (const Dot& dot : dots_) d = std::min(d, std::hypot(px - dot.x, py - dot.y) - dot.radius);
    return coverage(d);
  }

  Kind kind_;
  double radius_, width_, period_, phase_;
  Placement placement_;
  std::vector<Dot> dots_;
};

}  // namespace

const std::array<const char*, kNumClasses>& class_names() {
  // Same order as Kind.
  static const std::array<const char*, kNumClasses> names = {"disc",
                                                             "ring",
                                                             "square",
                                                             "frame",
                                                             "triangle",
                                                             "cross",
                                                             "horizontal-stripes",
                                                             "vertical-stripes",
                                                             "checkerboard",
                                                             "dots"};
  return names;
}

void render_image(size_t label, std::mt19937_64& rng, uint8_t* chw) {
  const Colour background = random_colour(rng);
  Colour foreground = foreground_colour(label, rng);
  for (int tries = 0; tries < 8 && distance(foreground, background) < 0.3; ++tries) {
    foreground = foreground_colour(label, rng);
  }
  // Weaker contrast on some images makes the set hard enough to be informative.
  const double contrast = uniform(rng, 0.35, 1.0);
  const double gradient_angle = uniform(rng, 0.0, 2 * kPi);
  const double gradient = uniform(rng, 0.0, 0.25);
  const double noise = uniform(rng, 0.02, 0.1);

  const Pattern pattern(label, rng);
  const bool distracted = uniform01(rng) < 0.35;
  const Colour distractor_colour = random_colour(rng);
  const double dx = uniform(rng, 3.0, kSide - 3.0), dy = uniform(rng, 3.0, kSide - 3.0);
  const double distractor_radius = uniform(rng, 1.5, 3.0);

  const size_t plane = cifar::kImageSide * cifar::kImageSide;
  for (int y = 0; y < kSide; ++y) {
    for (int x = 0; x < kSide; ++x) {
      const double px = x + 0.5, py = y + 0.5;
      const double shade =
          gradient * ((px - 16) * std::cos(gradient_angle) + (py - 16) * std::sin(gradient_angle)) /
          16;
      const double mask = contrast * pattern.at(px, py);
      const double blob =
          distracted ? coverage(std::hypot(px - dx, py - dy) - distractor_radius) : 0;
      for (int c = 0; c < 3; ++c) {
        double value = background.channel[c] + shade;
        value += mask * (foreground.channel[c] - value);
        value += blob * (distractor_colour.channel[c] - value);
        value += noise * standard_normal(rng);
        chw[c * plane + y * kSide + x] =
            static_cast<uint8_t>(std::lround(std::clamp(value, 0.0, 1.0) * 255.0));
      }
    }
  }
}

}  // namespace cae::synthetic
