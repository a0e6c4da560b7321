// Fuzzes confusion.csv's reader (what `cae report RUN` redraws the confusion
// heat map from): CSV syntax and quoting, a square table, the class names,
// every count. What it accepts is measured, written back identically, and
// drawn, as `cae report` does.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "figure_leaks.hpp"
#include "reader_contract.hpp"
#include "report/confusion_csv.hpp"
#include "report/confusion_heatmap.hpp"
#include "report/figure.hpp"
#include "scratch_folder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cae::fuzz;
  const std::string path =
      put_scratch_file("confusion.csv", std::string(reinterpret_cast<const char*>(data), size));
  cae::ConfusionTable table;
  try {
    table = cae::read_confusion_csv(path);
  } catch (const std::runtime_error& error) {
    require_good_message(error.what(), path);
    return 0;
  }
  const cae::ConfusionMatrix& matrix = table.matrix;
  (void)matrix.accuracy();
  (void)matrix.per_class_accuracy();
  // Written back, the table reads the same.
  const std::string again = put_scratch_file(
      "again.csv", cae::confusion_csv(matrix, table.class_names));
  const cae::ConfusionTable reread = cae::read_confusion_csv(again);
  if (reread.class_names != table.class_names) std::abort();
  for (int t = 0; t < matrix.num_classes(); ++t) {
    for (int p = 0; p < matrix.num_classes(); ++p) {
      if (reread.matrix.count(t, p) != matrix.count(t, p)) std::abort();
    }
  }
  (void)cae::figure_png(cae::confusion_heatmap_figure(matrix, table.class_names));
  return 0;
}
