// Several finished runs side by side (e.g. the same pipeline on two
// backends): accuracy, per-class accuracy, loss curves overlaid, stage timings.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "report/run_folder.hpp"

namespace cae {

// The names runs are shown by: each folder's last path element, or the
// whole path where two would read the same.
std::vector<std::string> run_display_names(const std::vector<RunFolder>& runs);

// The comparison page's HTML, figures inline as SVG (each linking its PNG,
// named as write_run_comparison writes them); links to each run's report are
// relative to `page_dir`, where the page will be.
std::string render_run_comparison(const std::vector<RunFolder>& runs,
                                  const std::filesystem::path& page_dir = ".");

// Writes compare.html and its figures' PNGs (and SVGs) into `out_dir`, which
// must exist; returns the page's path. Throws std::invalid_argument for
// fewer than two runs, IoError naming a path that cannot be written.
std::filesystem::path write_run_comparison(const std::filesystem::path& out_dir,
                                           const std::vector<RunFolder>& runs);

// The names of every file write_run_comparison may write into `out_dir`.
std::vector<std::string> run_comparison_files();

}  // namespace cae
