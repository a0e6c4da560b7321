#include "report/figure_font.hpp"

#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace cae {
namespace {

namespace fs = std::filesystem;

// Where DejaVu Sans may be, first match wins: CAE_FONT_DIR when set, the copy
// a build tree or install prefix keeps beside bin/ (so a build carried to a
// machine without fonts still has one), then the distributions' folders.
std::vector<fs::path> font_folders() {
  std::vector<fs::path> folders;
  if (const char* named = std::getenv("CAE_FONT_DIR"); named != nullptr && *named != '\0') {
    folders.emplace_back(named);
  }
  std::error_code error;
  fs::path program = fs::read_symlink("/proc/self/exe", error);
  if (!error) folders.push_back(program.parent_path().parent_path() / "share" / "cae" / "fonts");
  for (const char* folder : {"/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
                             "/usr/share/fonts/TTF", "/usr/share/fonts/dejavu-sans-fonts",
                             "/usr/local/share/fonts"}) {
    folders.emplace_back(folder);
  }
  return folders;
}

fs::path find_font_file(const char* name, const std::vector<fs::path>& folders) {
  for (const fs::path& folder : folders) {
    std::error_code error;
    if (fs::is_regular_file(folder / name, error)) return folder / name;
  }
  return {};
}

void say_text_omitted(const std::vector<fs::path>& folders) {
  std::string looked;
  for (const fs::path& folder : folders) looked += (looked.empty() ? "" : ", ") + folder.string();
  std::fprintf(stderr,
               "cae: no DejaVuSans.ttf in %s (install fonts-dejavu-core or set CAE_FONT_DIR); "
               "figures are drawn without text\n",
               looked.c_str());
}

// One FreeType face as a cairo face; cairo calls FT_Done_Face when it lets go.
cairo_font_face_t* load_face(FT_Library library, const fs::path& file, bool synthesize_bold) {
  FT_Face face = nullptr;
  if (FT_New_Face(library, file.c_str(), 0, &face) != 0) return nullptr;
  cairo_font_face_t* font = cairo_ft_font_face_create_for_ft_face(face, 0);
  static const cairo_user_data_key_t kFaceKey{};
  if (cairo_font_face_set_user_data(font, &kFaceKey, face,
                                    [](void* owned) { FT_Done_Face(static_cast<FT_Face>(owned)); }) !=
      CAIRO_STATUS_SUCCESS) {
    cairo_font_face_destroy(font);
    FT_Done_Face(face);
    return nullptr;
  }
  if (synthesize_bold) cairo_ft_font_face_set_synthesize(font, CAIRO_FT_SYNTHESIZE_BOLD);
  return font;
}

struct FigureFonts {
  cairo_font_face_t* regular = nullptr;
  cairo_font_face_t* bold = nullptr;
};

FigureFonts load_figure_fonts() {
  FigureFonts fonts;
  std::vector<fs::path> folders = font_folders();
  fs::path regular = find_font_file("DejaVuSans.ttf", folders);
  FT_Library library = nullptr;
  if (regular.empty() || FT_Init_FreeType(&library) != 0) {
    say_text_omitted(folders);
    return fonts;
  }
  fonts.regular = load_face(library, regular, false);
  if (fonts.regular == nullptr) {
    std::fprintf(stderr, "cae: cannot read the font %s; figures are drawn without text\n",
                 regular.c_str());
    return fonts;
  }
  // Bold from its own file where it is installed, else the regular face emboldened.
  fs::path bold = find_font_file("DejaVuSans-Bold.ttf", folders);
  if (!bold.empty()) fonts.bold = load_face(library, bold, false);
  if (fonts.bold == nullptr) fonts.bold = load_face(library, regular, true);
  return fonts;
}

}  // namespace

cairo_font_face_t* figure_font(bool bold) {
  // The faces (and the FreeType library under them) live as long as the process.
  static const FigureFonts fonts = load_figure_fonts();
  return bold ? fonts.bold : fonts.regular;
}

}  // namespace cae
