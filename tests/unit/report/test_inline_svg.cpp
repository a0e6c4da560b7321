#include <doctest/doctest.h>

#include <stdexcept>

#include "picture.hpp"
#include "report/html_page.hpp"
#include "report/inline_svg.hpp"
#include "report/loss_curve.hpp"

using cae::test::contains;

TEST_CASE("inline SVG gets its ids prefixed, its declaration dropped and a label") {
  std::string document =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10px\">"
      "<symbol id=\"glyph0-1\"/><clipPath id=\"clip1\"/>"
      "<use xlink:href=\"#glyph0-1\"/><g clip-path=\"url(#clip1)\"/></svg>\n";
  std::string svg = cae::inline_svg(document, "fig-", "a <label>");
  CHECK(svg.rfind("<svg class=\"figure\" role=\"img\" aria-label=\"a &lt;label&gt;\"", 0) == 0);
  CHECK_FALSE(contains(svg, "<?xml"));
  CHECK(contains(svg, "id=\"fig-glyph0-1\""));
  CHECK(contains(svg, "id=\"fig-clip1\""));
  CHECK(contains(svg, "xlink:href=\"#fig-glyph0-1\""));
  CHECK(contains(svg, "url(#fig-clip1)"));
  CHECK_FALSE(contains(svg, "\"#glyph"));
  CHECK(svg.back() == '>');
  CHECK_THROWS_AS(cae::inline_svg("<html></html>", "x", ""), std::invalid_argument);
}

TEST_CASE("two real figures on one page share no id") {
  auto figure = cae::loss_curve_figure(cae::train_and_test_series({0.3, 0.2}, {0.35, 0.25}));
  std::string a = cae::figure_html(figure, "a-", "first");
  std::string b = cae::figure_html(figure, "b-", "second", "loss.png");
  CHECK(contains(a, "id=\"a-"));
  CHECK(contains(b, "id=\"b-"));
  CHECK_FALSE(contains(a, "id=\"b-"));
  CHECK_FALSE(contains(b, "id=\"a-"));
  CHECK_FALSE(contains(a + b, " id=\"glyph"));
  CHECK(contains(b, "<a href=\"loss.png\">PNG</a>"));
}
