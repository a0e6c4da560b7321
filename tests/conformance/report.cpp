#include "report.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <iostream>

namespace conformance {
namespace {

std::string padded(const std::string& text, size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

void print_line(const std::string& op, const std::string& what, const std::string& detail,
                const char* verdict) {
  // Flushed line by line so a crash or a timeout still shows the last check.
  std::cout << padded(op, 20) << padded(what, 50) << padded(detail, 30) << verdict << std::endl;
}

}  // namespace

Tally& tally() {
  static Tally counts;
  return counts;
}

bool record(bool ok, const std::string& op, const std::string& what, const std::string& detail) {
  print_line(op, what, detail, ok ? "ok" : "FAIL");
  ++(ok ? tally().passed : tally().failed);
  // doctest counts it too, for its other reporters (console, junit).
  const std::string message = op + " " + what + ": " + detail;
  CHECK_MESSAGE(ok, message);
  return ok;
}

void explain(const std::string& text) { std::cout << "    " << text << std::endl; }

void note(const std::string& op, const std::string& what, const std::string& detail) {
  print_line(op, what, detail, "note");
  ++tally().notes;
}

void guarded(const std::string& op, const std::string& what, const std::function<void()>& body) {
  try {
    body();
  } catch (const std::exception& e) {
    record(false, op, what, "error");
    explain(e.what());
  }
}

bool require_member(const std::string& op, bool present) {
  if (!present) record(false, op, "", "unsupported (NULL member in the table)");
  return present;
}

std::string sci(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1e", value);
  return text;
}

std::string num(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace conformance
