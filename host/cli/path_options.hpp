// Options that name a file or folder are checked as text when the command
// line is parsed, before any work, so that a path the run could not record or
// create fails at once rather than after hours of training:
//   - valid UTF-8: cae records paths in JSON (checkpoints, features.json,
//     SVM models, reports), which holds nothing else;
//   - no name longer than NAME_MAX and no path of PATH_MAX or more, counting
//     every file the run will create under an output (its temporary
//     "NAME.tmp.PID" and lock included).
// Every such check throws a UsageError (exit 2) naming the option.
#pragma once

#include <string>
#include <vector>

#include "command.hpp"

namespace cae::cli {

// A value semantic for an option naming a path: the text checks run when
// the options are parsed. `option` is how messages name it ("--data", or
// "RUN_DIR" for a positional).
po::typed_value<std::string>* path_value(const std::string& option);
po::typed_value<std::vector<std::string>>* path_values(const std::string& option);
// For an option naming a file the command writes: its temporary's length is
// checked too (check_created_file), so every output file of a command is
// checked before the folder of any is made. (An output folder's files are
// checked when it is claimed: option_checks.hpp.)
po::typed_value<std::string>* output_file_value(const std::string& option);

// UTF-8 and the length limits, for `path` itself.
void check_path_text(const std::string& option, const std::string& path);

// The length limits for each file the run creates under the folder `dir`
// (`created`: names relative to it, "synthetic-data/test_batch.bin"), with
// the suffix of its temporary, and the symbolic links on the way: none may
// lead outside `dir` (io/confined_folder.hpp). Nothing is created.
void check_created_paths(const std::string& option, const std::string& dir,
                         const std::vector<std::string>& created);

// The same for the single file `path` (its temporary and its lock beside it).
void check_created_file(const std::string& option, const std::string& path);

}  // namespace cae::cli
