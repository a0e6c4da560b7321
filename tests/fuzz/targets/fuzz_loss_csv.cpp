// Fuzzes the loss table's reader (loss_curve.csv, what `cae report RUN`
// redraws the loss chart from): CSV syntax, the "epoch" header, the series'
// names, every value. What it accepts is drawn, as `cae report` does.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "figure_leaks.hpp"
#include "reader_contract.hpp"
#include "report/figure.hpp"
#include "report/loss_csv.hpp"
#include "report/loss_curve.hpp"
#include "scratch_folder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cae::fuzz;
  const std::string path =
      put_scratch_file("loss_curve.csv", std::string(reinterpret_cast<const char*>(data), size));
  std::vector<cae::LossSeries> series;
  try {
    series = cae::read_loss_series_csv(path);
  } catch (const std::runtime_error& error) {
    require_good_message(error.what(), path);
    return 0;
  }
  for (const cae::LossSeries& s : series) {
    for (double value : s.values) {
      if (std::isinf(value)) std::abort();  // missing values are NaN, the rest finite
    }
  }
  cae::LossCurveOptions options;
  options.log_scale = cae::prefers_log_scale(series);
  (void)cae::figure_png(cae::loss_curve_figure(series, options));
  return 0;
}
