#include "bench/bench_page.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "io/atomic_file.hpp"
#include "report/bar_chart.hpp"
#include "report/html_escape.hpp"
#include "report/html_page.hpp"

namespace cae::bench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string number(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

// The backends that ran, each with its colour: a backend keeps its colour in
// every chart of the page (its position in the list asked for).
struct RanBackend {
  const BackendBench* bench;
  Rgb color;
};

std::vector<RanBackend> ran_backends(const BenchComparison& cmp) {
  std::vector<RanBackend> ran;
  for (std::size_t i = 0; i < cmp.backends.size(); ++i) {
    if (cmp.backends[i].ran) ran.push_back({&cmp.backends[i], series_color(i)});
  }
  return ran;
}

// Op kinds in the order they first appear ("conv2d_forward", ...).
std::vector<std::string> op_kinds(const BenchResult& reference) {
  std::vector<std::string> kinds;
  for (const OpTiming& op : reference.ops) {
    if (std::find(kinds.begin(), kinds.end(), op.op) == kinds.end()) kinds.push_back(op.op);
  }
  return kinds;
}

std::string epoch_section(const BenchComparison& cmp, const std::vector<RanBackend>& ran) {
  std::vector<std::string> categories = {"one training epoch"};
  bool extraction = cmp.settings.extract_images > 0;
  if (extraction) categories.push_back("feature extraction");
  std::vector<BarSeries> series;
  for (const RanBackend& b : ran) {
    std::vector<double> values = {b.bench->result.epoch_seconds};
    if (extraction) values.push_back(b.bench->result.extract_seconds);
    series.push_back({b.bench->name, values, b.color});
  }
  BarChartOptions options;
  options.title = "Epoch time (" + std::to_string(cmp.settings.images) + " images, batch " +
                  std::to_string(cmp.settings.batch) + ")";
  options.y_label = "seconds";
  options.log_scale = true;
  options.height = 320;
  std::string html = "<section>\n<h2>Epoch time</h2>\n";
  html += figure_html(bar_chart_figure(categories, series, options), "epoch-", "epoch time");
  html +=
      "<table>\n<tr><th>backend</th><th>device</th><th class=\"number\">epoch s</th>"
      "<th class=\"number\">speed-up</th><th class=\"number\">images/s</th>"
      "<th class=\"number\">TFLOP/s</th><th class=\"number\">extraction s</th></tr>\n";
  const BenchResult& ref = cmp.backends[cmp.reference].result;
  for (const RanBackend& b : ran) {
    const BenchResult& r = b.bench->result;
    html += "<tr><td>" + html_escape(b.bench->name + " (" + b.bench->precision + ")") +
            "</td><td>" + html_escape(b.bench->device) + "</td><td class=\"number\">" +
            number("%.3f", r.epoch_seconds) + "</td><td class=\"number\">" +
            speedup_text(ref.epoch_seconds, r.epoch_seconds) + "</td><td class=\"number\">" +
            number("%.0f", r.images_per_second) + "</td><td class=\"number\">" +
            number("%.2f", r.epoch_tflops) + "</td><td class=\"number\">" +
            (extraction ? number("%.3f", r.extract_seconds) : "-") + "</td></tr>\n";
  }
  return html + "</table>\n</section>\n";
}

std::string op_chart(const std::string& kind, std::size_t index, const BenchResult& reference,
                     const std::vector<RanBackend>& ran) {
  std::vector<std::string> layers;
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < reference.ops.size(); ++i) {
    if (reference.ops[i].op == kind) {
      layers.push_back(reference.ops[i].layer);
      rows.push_back(i);
    }
  }
  std::vector<BarSeries> series;
  for (const RanBackend& b : ran) {
    std::vector<double> values;
    for (std::size_t row : rows) {
      values.push_back(row < b.bench->result.ops.size() ? b.bench->result.ops[row].ms : kNaN);
    }
    series.push_back({b.bench->name, values, b.color});
  }
  BarChartOptions options;
  options.title = kind;
  options.y_label = "ms";
  options.log_scale = true;
  options.height = 300;
  return figure_html(bar_chart_figure(layers, series, options), "op" + std::to_string(index) + "-",
                     kind + " per backend");
}

std::string op_table(const BenchComparison& cmp, const std::vector<RanBackend>& ran) {
  const BenchResult& ref = cmp.backends[cmp.reference].result;
  std::string html =
      "<table class=\"ops\">\n<tr><th>op</th><th>backend</th>"
      "<th class=\"number\">ms</th><th class=\"number\">speed-up</th>"
      "<th class=\"number\">TFLOP/s</th><th class=\"number\">GB/s</th></tr>\n";
  for (std::size_t i = 0; i < ref.ops.size(); ++i) {
    const OpTiming& ref_op = ref.ops[i];
    html += "<tr class=\"group\"><td colspan=\"6\">" +
            html_escape(ref_op.op + "  " + ref_op.layer + "  " + ref_op.shape) + "</td></tr>\n";
    for (const RanBackend& b : ran) {
      if (i >= b.bench->result.ops.size()) continue;
      const OpTiming& op = b.bench->result.ops[i];
      html += "<tr><td></td><td>" + html_escape(b.bench->name) + "</td><td class=\"number\">" +
              number("%.3f", op.ms) + "</td><td class=\"number\">" +
              speedup_text(ref_op.ms, op.ms) + "</td><td class=\"number\">" +
              (op.gflop > 0 && op.ms > 0 ? number("%.2f", op.gflop / op.ms) : "-") +
              "</td><td class=\"number\">" +
              (op.ms > 0 ? number("%.1f", op.gbytes / op.ms * 1e3) : "-") + "</td></tr>\n";
    }
  }
  return html + "</table>\n";
}

}  // namespace

std::string render_bench_page(const BenchComparison& cmp) {
  std::vector<RanBackend> ran = ran_backends(cmp);
  const BackendBench& ref = cmp.backends[cmp.reference];
  std::string body = "<p class=\"meta\">Every backend at the same shapes: batch " +
                     std::to_string(cmp.settings.batch) + ", median of " +
                     std::to_string(cmp.settings.policy.repeats) +
                     " runs per op; speed-ups are over <strong>" + html_escape(ref.name) +
                     "</strong>.</p>\n";
  for (const BackendBench& b : cmp.backends) {
    if (!b.ran) {
      body += "<p class=\"skipped\">Skipped <strong>" + html_escape(b.name) +
              "</strong>: " + html_escape(b.skip_reason) + "</p>\n";
    }
  }
  body += epoch_section(cmp, ran);
  body +=
      "<section>\n<h2>Per op</h2>\n<p>Milliseconds per call at the model's shapes, one group "
      "per layer; a log scale where times differ by more than 10x.</p>\n";
  std::vector<std::string> kinds = op_kinds(ref.result);
  for (std::size_t k = 0; k < kinds.size(); ++k) body += op_chart(kinds[k], k, ref.result, ran);
  body += op_table(cmp, ran) + "</section>\n";
  return html_page("cae bench: backends side by side", body);
}

void write_bench_page(const std::filesystem::path& path, const BenchComparison& comparison) {
  write_file_atomically(path.string(), render_bench_page(comparison));
}

}  // namespace cae::bench
