#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "report/html_escape.hpp"
#include "report/html_report.hpp"
#include "temp_dir.hpp"
#include "text_contains.hpp"

namespace {

using test_support::contains;

cae::ReportData sample_report() {
  cae::ReportData data;
  data.title = "run <1> & \"friends\"";
  data.backend = "cpu";
  data.device = "Xeon <virtual>";
  data.settings = {{"epochs", "20"}, {"lr<script>", "0.001"}};
  data.summary = {{"final test MSE", "0.0123"}};
  data.stage_timings = {{"train", 3.0}, {"svm", 1.0}};
  data.accuracy = 0.875;
  data.class_names = {"cat", "dog"};
  data.per_class_accuracy = {0.75, 1.0};
  data.per_class_support = {4, 4};
  data.confusion_png = "confusion.png";
  data.confusion_csv = "confusion.csv";
  data.predictions_csv = "predictions.csv";
  data.reconstruction_png = "images/recon grid.png";
  data.loss_curve_png = "loss.png";
  return data;
}

}  // namespace

TEST_CASE("html escaping covers the five special characters") {
  CHECK(cae::html_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
  CHECK(cae::html_escape("caf\xc3\xa9") == "caf\xc3\xa9");  // UTF-8 untouched
}

TEST_CASE("report shows the numbers, the pictures and the settings") {
  std::string html = cae::render_html_report(sample_report());
  CHECK(contains(html, "<!DOCTYPE html>"));
  CHECK(contains(html, "87.50 %"));   // overall
  CHECK(contains(html, "75.00 %"));   // cat
  CHECK(contains(html, "100.00 %"));  // dog
  CHECK(contains(html, "<td>cat</td>"));
  CHECK(contains(html, "0.0123"));
  CHECK(contains(html, "src=\"confusion.png\""));  // no SVG given: the PNG
  CHECK(contains(html, "href=\"confusion.csv\""));
  CHECK(contains(html, "href=\"predictions.csv\""));
  CHECK(contains(html, "src=\"loss.png\""));
  CHECK(contains(html, "src=\"images/recon%20grid.png\""));  // a usable URL
  CHECK(contains(html, "<strong>cpu</strong>"));
  CHECK(contains(html,
                 "<td>train</td><td class=\"number\">3.000</td>"
                 "<td class=\"number\">75.00 %</td>"));
  CHECK(contains(html, "4.000"));  // total time
  CHECK(contains(html, "<code>20</code>"));
}

TEST_CASE("figures with an SVG are drawn inline, and per-class accuracy is a chart") {
  cae::ReportData data = sample_report();
  cae::FigureSvgs svgs = {
      {"loss.png", "<?xml version=\"1.0\"?>\n<svg id=\"s\"><use href=\"#s\"/></svg>"}};
  std::string html = cae::render_html_report(data, svgs);
  CHECK(contains(
      html, "<svg class=\"figure\" role=\"img\" aria-label=\"Loss per epoch\" id=\"loss-s\">"));
  CHECK(contains(html, "href=\"#loss-s\""));
  CHECK(contains(html, "<a href=\"loss.png\">PNG</a>"));
  CHECK_FALSE(contains(html, "src=\"loss.png\""));
  CHECK(contains(html, "aria-label=\"accuracy per class\""));  // drawn from the data
  CHECK_FALSE(contains(html, "<?xml"));
}

TEST_CASE("report escapes every text it is given") {
  std::string html = cae::render_html_report(sample_report());
  CHECK(contains(html, "<title>run &lt;1&gt; &amp; &quot;friends&quot;</title>"));
  CHECK(contains(html, "Xeon &lt;virtual&gt;"));
  CHECK(contains(html, "lr&lt;script&gt;"));
  CHECK_FALSE(contains(html, "<1>"));
  CHECK_FALSE(contains(html, "<virtual>"));
  CHECK_FALSE(contains(html, "<script>"));
}

TEST_CASE("parts without data are left out") {
  cae::ReportData data;
  data.title = "empty";
  std::string html = cae::render_html_report(data);
  CHECK(contains(html, "<h1>empty</h1>"));
  CHECK_FALSE(contains(html, "<img"));
  CHECK_FALSE(contains(html, "<svg"));
  CHECK_FALSE(contains(html, "Accuracy"));
  CHECK_FALSE(contains(html, "Stage timings"));
  CHECK_FALSE(contains(html, "Settings"));

  data.per_class_accuracy = {0.5, std::nan("")};
  html = cae::render_html_report(data);
  CHECK(contains(html, "<td>1</td><td class=\"number\">n/a</td>"));  // numbers for names
  CHECK(contains(html, "Overall accuracy: <strong>n/a</strong>"));
}

TEST_CASE("inconsistent per-class data is an error") {
  cae::ReportData data = sample_report();
  data.class_names = {"cat"};
  CHECK_THROWS_AS(cae::render_html_report(data), std::invalid_argument);
  data = sample_report();
  data.per_class_support = {1, 2, 3};
  CHECK_THROWS_AS(cae::render_html_report(data), std::invalid_argument);
}

TEST_CASE("report.html is written whole or not at all, with its data and figures") {
  cae::test::TempDir dir;
  cae::ReportData data = sample_report();
  cae::write_html_report(dir / "report.html", data);
  std::string html = cae::test::read_file(dir / "report.html");
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.size() > 1000);
  CHECK(html.substr(html.size() - 8) == "</html>\n");
  CHECK(contains(html, "<a href=\"per_class_accuracy.png\">PNG</a>"));
  CHECK(std::filesystem::exists(dir / "report.json"));
  CHECK(std::filesystem::exists(dir / "per_class_accuracy.png"));
  CHECK(std::filesystem::exists(dir / "per_class_accuracy.svg"));
  CHECK(cae::test::entries_in(dir.path()) == 4);

  auto unwritable = dir / "missing" / "report.html";
  CHECK_THROWS_WITH_AS(cae::write_html_report(unwritable, data),
                       doctest::Contains((dir / "missing").c_str()), std::runtime_error);
  CHECK_FALSE(std::filesystem::exists(unwritable));
  CHECK(cae::test::entries_in(dir.path()) == 4);
}
