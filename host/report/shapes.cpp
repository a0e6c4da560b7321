#include "report/shapes.hpp"

#include <algorithm>
#include <cmath>

namespace cae {
namespace {

double distance_to_segment(double px, double py, Point a, Point b) {
  double dx = b.x - a.x;
  double dy = b.y - a.y;
  double length_squared = dx * dx + dy * dy;
  double t = length_squared > 0.0 ? ((px - a.x) * dx + (py - a.y) * dy) / length_squared : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return std::hypot(px - (a.x + t * dx), py - (a.y + t * dy));
}

// Coverage of a pixel whose centre lies `distance` from a shape's centre line
// when the shape reaches `half_width` from it: a one-pixel ramp across the
// edge, which is what makes the edges look smooth.
double edge_coverage(double distance, double half_width) {
  return std::clamp(half_width + 0.5 - distance, 0.0, 1.0);
}

bool is_finite(Point p) { return std::isfinite(p.x) && std::isfinite(p.y); }

// Per-pixel coverage of one shape, so overlapping pieces of it (the joins of
// a polyline) count once: the maximum, not the sum.
class CoverageMask {
 public:
  explicit CoverageMask(const RgbImage& image)
      : width_(image.width()),
        height_(image.height()),
        coverage_(static_cast<std::size_t>(width_) * height_, 0.0f) {}

  void add_segment(Point a, Point b, double half_width) {
    double reach = half_width + 1.0;
    int x_begin = std::max(0, static_cast<int>(std::floor(std::min(a.x, b.x) - reach)));
    int x_end = std::min(width_, static_cast<int>(std::ceil(std::max(a.x, b.x) + reach)));
    int y_begin = std::max(0, static_cast<int>(std::floor(std::min(a.y, b.y) - reach)));
    int y_end = std::min(height_, static_cast<int>(std::ceil(std::max(a.y, b.y) + reach)));
    for (int y = y_begin; y < y_end; ++y) {
      for (int x = x_begin; x < x_end; ++x) {
        float c = static_cast<float>(
            edge_coverage(distance_to_segment(x + 0.5, y + 0.5, a, b), half_width));
        float& slot = coverage_[static_cast<std::size_t>(y) * width_ + x];
        slot = std::max(slot, c);
      }
    }
    touched_x_begin_ = std::min(touched_x_begin_, x_begin);
    touched_x_end_ = std::max(touched_x_end_, x_end);
    touched_y_begin_ = std::min(touched_y_begin_, y_begin);
    touched_y_end_ = std::max(touched_y_end_, y_end);
  }

  void paint(RgbImage& image, Rgb color) const {
    for (int y = touched_y_begin_; y < touched_y_end_; ++y) {
      for (int x = touched_x_begin_; x < touched_x_end_; ++x) {
        image.blend(x, y, color, coverage_[static_cast<std::size_t>(y) * width_ + x]);
      }
    }
  }

 private:
  int width_;
  int height_;
  std::vector<float> coverage_;
  // Only this box was drawn into; painting skips the rest of the image.
  int touched_x_begin_ = width_;
  int touched_x_end_ = 0;
  int touched_y_begin_ = height_;
  int touched_y_end_ = 0;
};

}  // namespace

void draw_polyline(RgbImage& image, const std::vector<Point>& points, Rgb color, double width) {
  double half_width = std::max(width, 0.5) / 2.0;
  CoverageMask mask(image);
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!is_finite(points[i])) continue;
    bool has_next = i + 1 < points.size() && is_finite(points[i + 1]);
    bool has_previous = i > 0 && is_finite(points[i - 1]);
    if (has_next) {
      mask.add_segment(points[i], points[i + 1], half_width);
    } else if (!has_previous) {
      mask.add_segment(points[i], points[i], half_width);  // an isolated point: a dot
    }
  }
  mask.paint(image, color);
}

void draw_line(RgbImage& image, double x0, double y0, double x1, double y1, Rgb color,
               double width) {
  draw_polyline(image, {Point{x0, y0}, Point{x1, y1}}, color, width);
}

void fill_circle(RgbImage& image, double center_x, double center_y, double radius, Rgb color) {
  draw_line(image, center_x, center_y, center_x, center_y, color, 2.0 * radius);
}

}  // namespace cae
