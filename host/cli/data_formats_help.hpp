// The text of `cae help data` (and the commands that read data) that says
// which formats --data reads and how.
#pragma once

namespace cae::cli {

extern const char* const kDataFormatsHelp;

}  // namespace cae::cli
