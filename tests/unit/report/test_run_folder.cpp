#include <doctest/doctest.h>

#include <fstream>
#include <stdexcept>

#include "picture.hpp"
#include "report/confusion_csv.hpp"
#include "report/loss_curve.hpp"
#include "report/report_json.hpp"
#include "report/run_comparison.hpp"
#include "report/run_folder.hpp"
#include "temp_dir.hpp"

using cae::test::contains;

namespace {

// What `cae pipeline` leaves behind, on a small scale.
void write_run(const std::filesystem::path& dir, const std::string& backend, double last_loss) {
  std::filesystem::create_directories(dir);
  auto matrix = cae::ConfusionMatrix::from_labels({0, 0, 1, 1}, {0, 1, 1, 1}, 2);
  cae::write_confusion_csv(dir / "confusion.csv", matrix, {"cat", "dog"});
  cae::write_loss_curve_png(dir / "loss_curve.png",
                            cae::train_and_test_series({0.2, 0.1, last_loss}, {0.25, 0.12, 0.09}));
  cae::ReportData data;
  data.title = "cae pipeline";
  data.backend = backend;
  data.stage_timings = {{"train", 2.0}, {"svm", 0.5}};
  data.accuracy = matrix.accuracy();
  data.per_class_accuracy = matrix.per_class_accuracy();
  data.class_names = {"cat", "dog"};
  data.confusion_csv = "confusion.csv";
  data.confusion_png = "confusion.png";
  data.loss_curve_png = "loss_curve.png";
  cae::write_html_report(dir / "report.html", data);
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a finished run's report is rendered again from its data files") {
  cae::test::TempDir dir;
  write_run(dir / "run", "cpu", 0.08);
  std::filesystem::remove(dir / "run" / "report.html");
  std::filesystem::remove(dir / "run" / "confusion.png");
  std::filesystem::remove(dir / "run" / "confusion.svg");

  auto report = cae::rerender_run_report(dir / "run");
  CHECK(report == dir / "run" / "report.html");
  std::string html = cae::test::read_file(report);
  CHECK(contains(html, "75.00 %"));
  // Confusion, loss and per-class figures inline as vector graphics.
  CHECK(count_of(html, "<svg class=\"figure\"") == 3);
  CHECK(contains(html, "<a href=\"confusion.png\">PNG</a>"));
  CHECK(cae::test::decode_png_file(dir / "run" / "confusion.png").has_value());
  CHECK(cae::test::decode_png_file(dir / "run" / "per_class_accuracy.png").has_value());

  auto run = cae::read_run_folder(dir / "run");
  REQUIRE(run.losses.size() == 2);
  CHECK(run.losses[0].values == std::vector<double>{0.2, 0.1, 0.08});
}

TEST_CASE("cae report inlines only the SVGs it drew: one planted in the run folder never reaches the page") {
  cae::test::TempDir dir;
  const std::filesystem::path run = dir / "run";
  write_run(run, "cpu", 0.08);
  cae::ReportData data = cae::read_report_json(run / "report.json");
  data.reconstruction_png = "reconstructions.png";
  std::ofstream(run / "report.json") << cae::report_json(data);
  std::filesystem::copy_file(run / "loss_curve.png", run / "reconstructions.png");
  const std::string planted = "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>";
  std::ofstream(run / "reconstructions.svg") << planted;
  std::ofstream(run / "confusion.svg") << planted;  // redrawn from confusion.csv
  std::ofstream(run / "loss_curve.svg") << planted;  // redrawn from loss_curve.csv

  const std::string html = cae::test::read_file(cae::rerender_run_report(run));
  CHECK_FALSE(contains(html, "<script"));
  CHECK(contains(html, "<img src=\"reconstructions.png\""));
  // Confusion, loss and per-class figures, drawn here, are still inline.
  CHECK(count_of(html, "<svg class=\"figure\"") == 3);
}

TEST_CASE("a folder that is not a finished run is refused, naming it") {
  cae::test::TempDir dir;
  CHECK_THROWS_WITH_AS(cae::read_run_folder(dir.path()), doctest::Contains("no report.json"),
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(cae::rerender_run_report(dir / "absent"), doctest::Contains("not a folder"),
                       std::runtime_error);
}

TEST_CASE("runs are compared side by side") {
  cae::test::TempDir dir;
  write_run(dir / "a" / "cpu-run", "cpu", 0.08);
  write_run(dir / "b" / "v3-run", "v3", 0.07);
  std::vector<cae::RunFolder> runs = {cae::read_run_folder(dir / "a" / "cpu-run"),
                                      cae::read_run_folder(dir / "b" / "v3-run")};
  CHECK(cae::run_display_names(runs) == std::vector<std::string>{"cpu-run", "v3-run"});
  std::filesystem::create_directories(dir / "out");
  auto page = cae::write_run_comparison(dir / "out", runs);
  std::string html = cae::test::read_file(page);
  CHECK(contains(html, "<td>cpu-run</td><td>cpu</td>"));
  CHECK(contains(html, "<td>v3-run</td><td>v3</td>"));
  CHECK(contains(html, "../a/cpu-run/report.html"));
  CHECK(count_of(html, "<svg class=\"figure\"") == 3);  // per class, losses, timings
  for (const char* png : {"compare_per_class.png", "compare_loss.png", "compare_timings.png"}) {
    CHECK(cae::test::decode_png_file(dir / "out" / png).has_value());
  }
  CHECK_THROWS_AS(cae::write_run_comparison(dir / "out", {runs[0]}), std::invalid_argument);
}

TEST_CASE("runs of the same folder name are told apart by their paths") {
  cae::RunFolder a{"x/run", {}, {}};
  cae::RunFolder b{"y/run", {}, {}};
  CHECK(cae::run_display_names({a, b}) == std::vector<std::string>{"x/run", "y/run"});
}
