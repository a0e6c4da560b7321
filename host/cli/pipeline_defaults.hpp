// What `cae pipeline` does when an option is not given: `--defaults best`
// (the default) fills in the best recipe cae knows, chosen on the validation
// split (docs/PERF.md, "How each setting was chosen"); `--defaults baseline`
// keeps every option's own default, the seed project's settings (the seed
// network's latent features, one SVM fit at C 5), with results bit-identical
// to cae before the best recipe became the default.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "command.hpp"

namespace cae::cli {

void add_pipeline_defaults_option(po::options_description& options);

// The options `--defaults` adds to what the user gave: none for baseline; for
// best, each of the recipe's options the user left at its default, except
// where the user chose the part it belongs to (--features decides the
// threshold too; --C or --gamma means one fit, not a search). The recipe's
// epochs are left out for `synthetic_data`, whose short set trains its own.
std::vector<std::string> implied_pipeline_arguments(const po::variables_map& given,
                                                    bool synthetic_data);

// `given` with the `implied` options parsed (through `options`, so checked
// as typed ones are) and stored under the user's own.
po::variables_map with_pipeline_defaults(const po::variables_map& given,
                                         const po::options_description& options,
                                         const std::vector<std::string>& implied);

// One log line naming the implied options; nothing when there are none.
// Said once the command line has passed every check, so that a refused
// command still answers with one line.
void log_pipeline_defaults(const std::vector<std::string>& implied, std::ostream& log);

}  // namespace cae::cli
