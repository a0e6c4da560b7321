#include "report/chart_text.hpp"

#include <cmath>
#include <memory>

#include "report/figure_font.hpp"

namespace cae {
namespace {

// Without a font file, layouts are still planned with DejaVu Sans's average
// advance and line height (per pixel of size), so figures keep their shape.
constexpr double kFallbackAdvancePerChar = 0.6;
constexpr double kFallbackLineHeight = 1.17;

// False when there is no font to draw with (figure_font said so once).
bool select_font(cairo_t* cr, const TextStyle& style) {
  cairo_font_face_t* face = figure_font(style.bold);
  if (face == nullptr) return false;
  cairo_set_font_face(cr, face);
  cairo_set_font_size(cr, style.size);
  // Unhinted metrics: text measures the same on the PNG and the SVG surface,
  // so a layout planned once fits both.
  cairo_font_options_t* options = cairo_font_options_create();
  cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
  cairo_set_font_options(cr, options);
  cairo_font_options_destroy(options);
  return true;
}

// A context on a 1x1 surface, only for measuring text.
cairo_t* measuring_context() {
  static std::unique_ptr<cairo_t, decltype(&cairo_destroy)> context = [] {
    cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
    cairo_t* cr = cairo_create(surface);
    cairo_surface_destroy(surface);  // the context keeps its own reference
    return std::unique_ptr<cairo_t, decltype(&cairo_destroy)>(cr, cairo_destroy);
  }();
  return context.get();
}

double advance(cairo_t* cr, const std::string& text) {
  cairo_text_extents_t extents;
  cairo_text_extents(cr, text.c_str(), &extents);
  return extents.x_advance;
}

double offset(Align align, double length) {
  switch (align) {
    case Align::kStart:
      return 0.0;
    case Align::kCenter:
      return -length / 2.0;
    case Align::kEnd:
      return -length;
  }
  return 0.0;
}

}  // namespace

void set_color(cairo_t* cr, Rgb color) {
  cairo_set_source_rgb(cr, color.r / 255.0, color.g / 255.0, color.b / 255.0);
}

double text_width(const std::string& text, const TextStyle& style) {
  cairo_t* cr = measuring_context();
  if (!select_font(cr, style)) return kFallbackAdvancePerChar * style.size * text.size();
  return advance(cr, text);
}

double text_height(const TextStyle& style) {
  cairo_t* cr = measuring_context();
  if (!select_font(cr, style)) return kFallbackLineHeight * style.size;
  cairo_font_extents_t extents;
  cairo_font_extents(cr, &extents);
  return extents.ascent + extents.descent;
}

void draw_text(cairo_t* cr, double x, double y, const std::string& text, const TextStyle& style,
               Align horizontal, Align vertical, double angle_degrees) {
  if (text.empty()) return;
  cairo_save(cr);
  if (!select_font(cr, style)) {
    cairo_restore(cr);
    return;
  }
  cairo_font_extents_t font;
  cairo_font_extents(cr, &font);
  cairo_translate(cr, x, y);
  cairo_rotate(cr, -angle_degrees * M_PI / 180.0);
  double box_height = font.ascent + font.descent;
  double top = offset(vertical, box_height);
  cairo_move_to(cr, offset(horizontal, advance(cr, text)), top + font.ascent);
  set_color(cr, style.color);
  cairo_show_text(cr, text.c_str());
  cairo_restore(cr);
}

}  // namespace cae
