// The bench comparison as a page: an epoch-time chart, a grouped bar chart
// per op (one bar per backend), and the table op by op. Drawn with the
// report's cairo figure code, inline as SVG, so the page is one file.
#pragma once

#include <filesystem>
#include <string>

#include "bench/backend_comparison.hpp"

namespace cae::bench {

std::string render_bench_page(const BenchComparison& comparison);

// Writes render_bench_page() atomically; IoError names `path` on failure.
void write_bench_page(const std::filesystem::path& path, const BenchComparison& comparison);

}  // namespace cae::bench
