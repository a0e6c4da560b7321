// Fuzzes report.json's reader (what `cae report RUN` reads back): JSON
// syntax, the format and version, every field's type, and the figure paths,
// which must stay inside the run folder. A rejected file gets one line.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "report/report_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const cae::ReportData report = cae::parse_report_json(text);
    // What the reader accepts is rendered again: it must serialise.
    (void)cae::report_json(report);
  } catch (const std::runtime_error& error) {
    // parse_report_json's messages do not name the file (read_report_json
    // adds it), so the contract here is one non-empty line.
    const std::string message = error.what();
    if (message.empty() || message.find('\n') != std::string::npos) {
      std::fprintf(stderr, "reader contract broken: %s\n", message.c_str());
      std::abort();
    }
  }
  return 0;
}
