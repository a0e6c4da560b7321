// A figure of the report: one drawing function that paints onto a cairo
// context, so the same code makes the PNG file (cairo image surface) and the
// vector SVG embedded in an HTML page (cairo SVG surface).
#pragma once

#include <cairo.h>

#include <filesystem>
#include <functional>
#include <string>

namespace cae {

struct Figure {
  // Size in CSS pixels: the PNG has exactly these pixels, the SVG this viewBox.
  int width = 0;
  int height = 0;
  // Paints the whole figure, background included, in pixel coordinates with
  // (0, 0) at the top left.
  std::function<void(cairo_t*)> draw;
};

// The PNG file's bytes. Throws std::runtime_error (naming cairo's error) if
// drawing or encoding fails, std::invalid_argument for a bad size.
std::string figure_png(const Figure& figure);

// The SVG document's text (glyphs are outlines, so no font is needed to show it).
std::string figure_svg(const Figure& figure);

// `png_path` with the extension .svg: where write_figure() puts the SVG.
std::filesystem::path svg_path_for(const std::filesystem::path& png_path);

// Writes the PNG at `png_path` and the SVG next to it, each atomically; IoError
// (a std::runtime_error) names the path on failure.
void write_figure(const std::filesystem::path& png_path, const Figure& figure);

}  // namespace cae
