#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "report/report_json.hpp"
#include "temp_dir.hpp"

TEST_CASE("report.json keeps everything the page shows") {
  cae::ReportData data;
  data.title = "run \"1\"";
  data.backend = "cpu";
  data.device = "Xeon";
  data.settings = {{"epochs", "2"}, {"batch", "64"}};
  data.summary = {{"final test MSE", "0.01"}};
  data.stage_timings = {{"train", 3.5}, {"svm", std::nan("")}};
  data.accuracy = 0.5;
  data.per_class_accuracy = {1.0, std::nan("")};
  data.per_class_support = {3, 0};
  data.class_names = {"cat", "dog"};
  data.confusion_png = "confusion.png";
  data.loss_curve_png = "loss_curve.png";
  data.per_class_png = "per_class_accuracy.png";

  cae::ReportData back = cae::parse_report_json(cae::report_json(data));
  CHECK(back.title == data.title);
  CHECK(back.backend == "cpu");
  CHECK(back.device == "Xeon");
  CHECK(back.settings == data.settings);
  CHECK(back.summary == data.summary);
  REQUIRE(back.stage_timings.size() == 2);
  CHECK(back.stage_timings[0] == std::make_pair(std::string("train"), 3.5));
  CHECK(std::isnan(back.stage_timings[1].second));
  CHECK(back.accuracy == 0.5);
  REQUIRE(back.per_class_accuracy.size() == 2);
  CHECK(std::isnan(back.per_class_accuracy[1]));
  CHECK(back.per_class_support == data.per_class_support);
  CHECK(back.class_names == data.class_names);
  CHECK(back.confusion_png == "confusion.png");
  CHECK(back.loss_curve_png == "loss_curve.png");
  CHECK(back.per_class_png == "per_class_accuracy.png");
  CHECK(back.reconstruction_png.empty());
}

TEST_CASE("a malformed report.json is refused with a reason") {
  CHECK_THROWS_WITH_AS(cae::parse_report_json("{"), doctest::Contains("not JSON cae reads: parse error"),
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(cae::parse_report_json("{\"format\": \"other\"}"),
                       doctest::Contains("not a cae report"), std::runtime_error);
  CHECK_THROWS_WITH_AS(cae::parse_report_json("{\"format\": \"cae-report\", \"version\": 9}"),
                       doctest::Contains("version 9"), std::runtime_error);
  CHECK_THROWS_WITH_AS(cae::parse_report_json("{\"format\": \"cae-report\", \"version\": 1}"),
                       doctest::Contains("malformed"), std::runtime_error);
  cae::test::TempDir dir;
  CHECK_THROWS_WITH_AS(cae::read_report_json(dir / "absent.json"), doctest::Contains("absent.json"),
                       std::runtime_error);
}
