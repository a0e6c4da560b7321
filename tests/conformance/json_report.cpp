#include "json_report.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "report.hpp"
#include "suite.hpp"

namespace conformance {

bool write_run_json(const std::string& path, const std::string& backend, uint64_t seed,
                    const std::string& verdict, const std::string& reason) {
  nlohmann::json doc;
  doc["backend"] = backend;
  doc["seed"] = seed;
  doc["verdict"] = verdict;
  if (!suite().library_sha256.empty()) doc["sha256"] = suite().library_sha256;
  doc["checks"] = tally().passed + tally().failed;
  doc["passed"] = tally().passed;
  doc["failed"] = tally().failed;
  doc["notes"] = tally().notes;
  doc["failures"] = nlohmann::json::array();
  std::map<std::string, const CheckResult*> worst;
  for (const CheckResult& r : results()) {
    if (!r.ok) {
      doc["failures"].push_back(
          {{"op", r.op},
           {"check", r.what},
           {"detail", r.detail + (r.explanation.empty() ? "" : ": " + r.explanation)}});
    }
    if (std::isnan(r.ratio)) continue;
    const CheckResult*& w = worst[r.op];
    if (!w || r.ratio > w->ratio) w = &r;
  }
  doc["worst"] = nlohmann::json::array();
  for (const auto& [op, r] : worst) {
    // JSON has no infinity: a check with no bound at all reports 1e300.
    doc["worst"].push_back(
        {{"op", op}, {"ratio", std::isfinite(r->ratio) ? r->ratio : 1e300}, {"check", r->what}});
  }
  doc["crash"] = nullptr;
  if (!reason.empty()) doc["reason"] = reason;

  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << doc.dump(1) << "\n";
    if (!out) {
      std::cerr << "cae-conformance: cannot write " << temporary << "\n";
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::cerr << "cae-conformance: cannot rename " << temporary << " to " << path << "\n";
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

}  // namespace conformance
