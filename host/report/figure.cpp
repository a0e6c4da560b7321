#include "report/figure.hpp"

#include <cairo-svg.h>

#include <memory>
#include <stdexcept>

#include "io/atomic_file.hpp"

namespace cae {
namespace {

// Large enough for any report figure, small enough that a bogus size fails
// loudly instead of allocating gigabytes.
constexpr int kMaxSide = 16384;

using SurfacePtr = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using ContextPtr = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

void check_size(const Figure& figure) {
  if (figure.width <= 0 || figure.height <= 0 || figure.width > kMaxSide ||
      figure.height > kMaxSide) {
    throw std::invalid_argument("figure size " + std::to_string(figure.width) + "x" +
                                std::to_string(figure.height) + " is out of range");
  }
  if (!figure.draw) throw std::invalid_argument("figure without a drawing function");
}

void check(cairo_status_t status, const char* what) {
  if (status != CAIRO_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": " + cairo_status_to_string(status));
  }
}

cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

// Draws onto `surface` and reports any error the drawing left in the context.
void paint(cairo_surface_t* surface, const Figure& figure) {
  ContextPtr cr(cairo_create(surface), cairo_destroy);
  figure.draw(cr.get());
  check(cairo_status(cr.get()), "drawing a figure");
}

}  // namespace

std::string figure_png(const Figure& figure) {
  check_size(figure);
  SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, figure.width, figure.height),
                     cairo_surface_destroy);
  check(cairo_surface_status(surface.get()), "creating a PNG surface");
  paint(surface.get(), figure);
  std::string bytes;
  check(cairo_surface_write_to_png_stream(surface.get(), append_bytes, &bytes), "encoding a PNG");
  return bytes;
}

std::string figure_svg(const Figure& figure) {
  check_size(figure);
  std::string text;
  SurfacePtr surface(
      cairo_svg_surface_create_for_stream(append_bytes, &text, figure.width, figure.height),
      cairo_surface_destroy);
  check(cairo_surface_status(surface.get()), "creating an SVG surface");
  // Pixels, not cairo's default points, so the SVG shows at the PNG's size.
  cairo_svg_surface_set_document_unit(surface.get(), CAIRO_SVG_UNIT_PX);
  paint(surface.get(), figure);
  cairo_surface_finish(surface.get());
  check(cairo_surface_status(surface.get()), "writing an SVG");
  return text;
}

std::filesystem::path svg_path_for(const std::filesystem::path& png_path) {
  std::filesystem::path svg = png_path;
  return svg.replace_extension(".svg");
}

void write_figure(const std::filesystem::path& png_path, const Figure& figure) {
  std::string png = figure_png(figure);
  std::string svg = figure_svg(figure);
  write_file_atomically(png_path.string(), png);
  write_file_atomically(svg_path_for(png_path).string(), svg);
}

}  // namespace cae
