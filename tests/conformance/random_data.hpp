// Seeded random inputs. Every check draws from its own generator, seeded from
// the run's seed and the check's name, so --seed S reproduces any single
// check's data even when --filter runs only some of them.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace conformance {

class Random {
 public:
  explicit Random(uint64_t seed) : engine_(seed) {}

  float uniform(float lo, float hi);
  std::vector<float> uniform(int64_t count, float lo, float hi);
  int64_t index(int64_t count);  // in [0, count)
  std::mt19937_64& engine() { return engine_; }

 private:
  std::mt19937_64 engine_;
};

// The generator for the check `op` / `what` of this run.
Random random_for(const std::string& op, const std::string& what);

// A fresh seed for a run that was not given one.
uint64_t fresh_seed();

}  // namespace conformance
