#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "bench/backend_comparison.hpp"
#include "bench/bench_page.hpp"
#include "text_contains.hpp"

namespace {

using cae::bench::BackendBench;
using cae::bench::BenchComparison;
using cae::bench::OpTiming;

using test_support::contains;

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// A backend whose ops all take `ms` (conv: 2 GFLOP, 0.4 GB; relu: 0.1 GB).
BackendBench ran(const std::string& name, double ms, double epoch_seconds) {
  BackendBench b;
  b.name = name;
  b.device = "device <" + name + ">";
  b.precision = "fp32";
  b.ran = true;
  b.result.ops = {OpTiming{"conv2d_forward", "encoder.conv1", "[64,3,32,32]", ms, 2.0, 0.4},
                  OpTiming{"conv2d_forward", "encoder.conv2", "[64,256,16,16]", ms, 2.0, 0.4},
                  OpTiming{"relu_backward", "encoder.conv1", "[64,256,32,32]", ms, 0.0, 0.1}};
  b.result.epoch_seconds = epoch_seconds;
  b.result.images_per_second = 1000 / epoch_seconds;
  b.result.extract_seconds = epoch_seconds / 2;
  return b;
}

BackendBench skipped(const std::string& name, const std::string& reason) {
  BackendBench b;
  b.name = name;
  b.skip_reason = reason;
  return b;
}

BenchComparison sample() {
  BenchComparison cmp;
  cmp.settings.images = 1000;
  cmp.backends = {skipped("naive", "unavailable: no CUDA device"), ran("cpu", 10.0, 20.0),
                  ran("v3", 0.1, 0.5)};
  cmp.reference = 1;
  return cmp;
}

}  // namespace

TEST_CASE("the reference is the first backend that ran, or the one named") {
  auto backends = sample().backends;
  CHECK(cae::bench::choose_reference(backends, "") == 1);
  CHECK(cae::bench::choose_reference(backends, "V3") == 2);
  CHECK_THROWS_WITH_AS(cae::bench::choose_reference(backends, "naive"),
                       doctest::Contains("no CUDA device"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(cae::bench::choose_reference(backends, "v9"), doctest::Contains("not among"),
                       std::invalid_argument);
  CHECK_THROWS_AS(cae::bench::choose_reference({skipped("a", "x")}, ""), std::invalid_argument);
}

TEST_CASE("speed-ups read well at every magnitude") {
  CHECK(cae::bench::speedup_text(10.0, 0.1) == "100x");
  CHECK(cae::bench::speedup_text(10.0, 0.5) == "20.0x");
  CHECK(cae::bench::speedup_text(1.0, 2.0) == "0.50x");
  CHECK(cae::bench::speedup_text(0.0, 2.0) == "-");
}

TEST_CASE("the table lists skipped backends with their reason and every op per backend") {
  std::string table = cae::bench::format_comparison(sample());
  CHECK(contains(table, "skipped naive: unavailable: no CUDA device"));
  CHECK(contains(table, "speed-up over cpu"));
  CHECK(count_of(table, "conv2d_forward  encoder.") == 2);
  CHECK(count_of(table, "v3 (fp32)") == 4);                        // three ops and the epoch line
  CHECK(contains(table, "0.100       100x     20.00    4000.0"));  // ms, x, TFLOP/s, GB/s
  CHECK(contains(table, "40.0x"));                                 // epoch 20 s -> 0.5 s
  CHECK_FALSE(contains(table, "naive (fp32)"));
}

TEST_CASE("the JSON holds the same figures") {
  auto doc = nlohmann::json::parse(cae::bench::comparison_json(sample()));
  CHECK(doc["format"] == "cae-bench-comparison");
  CHECK(doc["reference"] == "cpu");
  REQUIRE(doc["backends"].size() == 3);
  CHECK(doc["backends"][0]["ran"] == false);
  CHECK(doc["backends"][0]["skipped"] == "unavailable: no CUDA device");
  const auto& v3 = doc["backends"][2];
  CHECK(v3["ops"][0]["speedup"].get<double>() == doctest::Approx(100.0));
  CHECK(v3["ops"][0]["tflops"].get<double>() == doctest::Approx(20.0));
  CHECK(v3["ops"][2]["gbps"].get<double>() == doctest::Approx(1000.0));
  CHECK(v3["epoch_speedup"].get<double>() == doctest::Approx(40.0));
}

TEST_CASE("the page has an epoch chart and a chart per op kind, and says who was skipped") {
  std::string html = cae::bench::render_bench_page(sample());
  CHECK(contains(html, "<!DOCTYPE html>"));
  CHECK(count_of(html, "<svg class=\"figure\"") == 3);  // epoch, conv2d_forward, relu_backward
  CHECK(contains(html, "aria-label=\"epoch time\""));
  CHECK(contains(html, "aria-label=\"conv2d_forward per backend\""));
  CHECK(contains(html, "Skipped <strong>naive</strong>: unavailable: no CUDA device"));
  CHECK(contains(html, "device &lt;v3&gt;"));  // escaped
  CHECK(contains(html, "<td class=\"number\">100x</td>"));
}
