// Anti-aliased lines and dots for the charts.
#pragma once

#include <vector>

#include "report/rgb_image.hpp"

namespace cae {

// A straight segment of the given width (pixels) between two points in pixel
// coordinates, where (0.5, 0.5) is the centre of the top-left pixel. Ends are
// round, so consecutive segments join without gaps.
void draw_line(RgbImage& image, double x0, double y0, double x1, double y1, Rgb color,
               double width = 1.0);

struct Point {
  double x = 0.0;
  double y = 0.0;
};

// Connected segments through `points`, drawn as one shape so the joins are
// not painted twice (which would show as darker knots at every vertex).
// Non-finite points break the line into separate pieces.
void draw_polyline(RgbImage& image, const std::vector<Point>& points, Rgb color,
                   double width = 1.0);

void fill_circle(RgbImage& image, double center_x, double center_y, double radius, Rgb color);

}  // namespace cae
